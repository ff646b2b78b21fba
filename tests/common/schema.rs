//! Checking response bodies against `openapi.yaml`: find the operation's documented response for the
//! status and media type, then validate the JSON with a small validator for the JSON Schema subset the
//! spec uses ($ref, type incl. null, properties, required, additionalProperties, items, enum, oneOf,
//! minimum, maximum). Written by hand because the `jsonschema` crate is a heavy build for what we use.

use serde_json::Value;

pub struct Spec {
    root: Value,
}

impl Spec {
    pub fn load() -> Spec {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.yaml")).unwrap();
        let yaml: serde_yaml::Value = serde_yaml::from_str(&text).expect("openapi.yaml parses");
        Spec { root: serde_json::to_value(yaml).expect("openapi.yaml converts to JSON") }
    }

    fn resolve<'a>(&'a self, v: &'a Value) -> &'a Value {
        match v.get("$ref").and_then(Value::as_str) {
            Some(r) => {
                let ptr = r.strip_prefix('#').expect("local refs only");
                self.resolve(self.root.pointer(ptr).unwrap_or_else(|| panic!("dangling $ref {r}")))
            }
            None => v,
        }
    }

    /// Is `method path` an operation of the spec?
    pub fn has_operation(&self, method: &str, path: &str) -> bool {
        self.root.pointer(&format!("/paths/{}/{}", path.replace('/', "~1"), method.to_lowercase())).is_some()
    }

    /// Validate one response. Panics (failing the test) when the status or media type is not
    /// documented for the operation, or the body does not match.
    pub fn check_response(&self, method: &str, path: &str, status: u16, content_type: &str, body: &[u8]) {
        let op = self
            .root
            .pointer(&format!("/paths/{}/{}", path.replace('~', "~0").replace('/', "~1"), method.to_lowercase()))
            .unwrap_or_else(|| panic!("{method} {path} is not in openapi.yaml"));
        let resp = op
            .pointer(&format!("/responses/{status}"))
            .unwrap_or_else(|| panic!("{method} {path}: status {status} is not documented"));
        let resp = self.resolve(resp);
        let mime = content_type.split(';').next().unwrap_or("").trim();
        let media = resp
            .pointer(&format!("/content/{}", mime.replace('/', "~1")))
            .unwrap_or_else(|| panic!("{method} {path} {status}: media type {mime:?} is not documented"));
        let schema = &media["schema"];
        match mime {
            "application/json" | "application/problem+json" => {
                let v: Value = serde_json::from_slice(body)
                    .unwrap_or_else(|e| panic!("{method} {path} {status}: body is not JSON: {e}"));
                self.assert_valid(schema, &v, &format!("{method} {path} {status}"));
            }
            "application/x-ndjson" => {
                for line in body.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                    let v: Value = serde_json::from_slice(line).expect("each NDJSON line is JSON");
                    self.assert_valid(schema, &v, &format!("{method} {path} {status} (line)"));
                }
            }
            _ => assert_eq!(self.resolve(schema)["type"], "string", "non-JSON bodies are documented as strings"),
        }
    }

    pub fn assert_valid(&self, schema: &Value, v: &Value, what: &str) {
        let mut errors = Vec::new();
        self.validate(schema, v, "$", &mut errors);
        assert!(errors.is_empty(), "{what}: body does not match openapi.yaml:\n{}\nbody: {v}", errors.join("\n"));
    }

    /// Named component schema, for tests that validate a value directly.
    pub fn schema(&self, name: &str) -> &Value {
        &self.root["components"]["schemas"][name]
    }

    fn validate(&self, schema: &Value, v: &Value, at: &str, errors: &mut Vec<String>) {
        let s = self.resolve(schema);
        if let Some(t) = s.get("type") {
            let types: Vec<&str> = match t {
                Value::String(t) => vec![t.as_str()],
                Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                _ => panic!("bad type in schema at {at}"),
            };
            if !types.iter().any(|t| type_matches(t, v)) {
                errors.push(format!("{at}: expected {types:?}, got {v}"));
                return;
            }
        }
        if let Some(allowed) = s.get("enum").and_then(Value::as_array)
            && !allowed.contains(v)
        {
            errors.push(format!("{at}: {v} is not one of {allowed:?}"));
        }
        if let Some(n) = v.as_f64() {
            if s.get("minimum").and_then(Value::as_f64).is_some_and(|m| n < m) {
                errors.push(format!("{at}: {n} is below the minimum"));
            }
            if s.get("maximum").and_then(Value::as_f64).is_some_and(|m| n > m) {
                errors.push(format!("{at}: {n} is above the maximum"));
            }
        }
        if let Some(obj) = v.as_object() {
            let props = s.get("properties").and_then(Value::as_object);
            for r in s.get("required").and_then(Value::as_array).into_iter().flatten() {
                let r = r.as_str().unwrap();
                if !obj.contains_key(r) {
                    errors.push(format!("{at}: missing required {r:?}"));
                }
            }
            for (k, val) in obj {
                let here = format!("{at}.{k}");
                match props.and_then(|p| p.get(k)) {
                    Some(ps) => self.validate(ps, val, &here, errors),
                    None => match s.get("additionalProperties") {
                        Some(Value::Bool(false)) => errors.push(format!("{here}: not allowed by the schema")),
                        Some(ap @ Value::Object(_)) => self.validate(ap, val, &here, errors),
                        _ => {}
                    },
                }
            }
        }
        if let (Some(items), Some(arr)) = (s.get("items"), v.as_array()) {
            for (i, item) in arr.iter().enumerate() {
                self.validate(items, item, &format!("{at}[{i}]"), errors);
            }
        }
        if let Some(one_of) = s.get("oneOf").and_then(Value::as_array) {
            let matching = one_of
                .iter()
                .filter(|alt| {
                    let mut e = Vec::new();
                    self.validate(alt, v, at, &mut e);
                    e.is_empty()
                })
                .count();
            if matching != 1 {
                errors.push(format!("{at}: matches {matching} of the oneOf alternatives, not exactly 1"));
            }
        }
    }
}

fn type_matches(t: &str, v: &Value) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        "object" => v.is_object(),
        "array" => v.is_array(),
        other => panic!("unsupported schema type {other}"),
    }
}
