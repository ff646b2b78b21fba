//! Checking answers against `openapi.yaml`: find the operation's documented response for the status
//! and media type, check the documented headers, then validate the body with the `jsonschema` crate
//! (JSON Schema 2020-12, the dialect of OpenAPI 3.1 schemas), so every keyword the spec uses is
//! enforced as a third-party contract tester would. Request bodies are checked too, in one direction:
//! a body the spec calls valid must not be refused as malformed (see `TestApp::send`). The spec is read with `serde-saphyr` (a pure-Rust
//! YAML parser, maintained; `serde_yaml` is deprecated) straight into a `serde_json::Value`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use jsonschema::{Draft, Validator};
use serde_json::{Value, json};

pub struct Spec {
    root: Value,
    /// Compiled validators by JSON pointer into the spec.
    validators: Mutex<HashMap<String, Arc<Validator>>>,
}

/// `a/b` as one JSON pointer segment.
fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Parse YAML text into JSON, as the tests read the spec and the served `/openapi.yaml`.
pub fn yaml_to_json(text: &str) -> Value {
    serde_saphyr::from_str(text).unwrap_or_else(|e| panic!("YAML does not parse: {e}"))
}

impl Spec {
    pub fn load() -> Spec {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.yaml")).unwrap();
        Spec { root: yaml_to_json(&text), validators: Mutex::default() }
    }

    /// Follow `$ref`s (local ones: the spec has no others) to the object they name.
    fn resolve<'a>(&'a self, v: &'a Value) -> &'a Value {
        match v.get("$ref").and_then(Value::as_str) {
            Some(r) => {
                let ptr = r.strip_prefix('#').expect("local refs only");
                self.resolve(self.root.pointer(ptr).unwrap_or_else(|| panic!("dangling $ref {r}")))
            }
            None => v,
        }
    }

    /// A validator for `schema`, a part of the spec: the whole spec is the schema document (with
    /// `schema` under a private key and a root `$ref` to it), so `$ref`s inside resolve as they do
    /// for any OpenAPI tool.
    fn validator(&self, schema: &Value) -> Arc<Validator> {
        let mut cache = self.validators.lock().unwrap();
        cache
            .entry(schema.to_string())
            .or_insert_with(|| {
                let mut doc = self.root.clone();
                let obj = doc.as_object_mut().unwrap();
                obj.insert("$schema".into(), json!("https://json-schema.org/draft/2020-12/schema"));
                obj.insert("x-pith-checked".into(), schema.clone());
                obj.insert("$ref".into(), json!("#/x-pith-checked"));
                let v = jsonschema::options()
                    .with_draft(Draft::Draft202012)
                    .build(&doc)
                    .unwrap_or_else(|e| panic!("schema {schema} does not compile: {e}"));
                Arc::new(v)
            })
            .clone()
    }

    /// The documented response of `method path` for `status`, resolved.
    fn response(&self, method: &str, path: &str, status: u16) -> &Value {
        let op = self
            .root
            .pointer(&format!("/paths/{}/{}", escape(path), method.to_lowercase()))
            .unwrap_or_else(|| panic!("{method} {path} is not in openapi.yaml"));
        let resp = op
            .pointer(&format!("/responses/{status}"))
            .unwrap_or_else(|| panic!("{method} {path}: status {status} is not documented"));
        self.resolve(resp)
    }

    /// Is `method path` an operation of the spec?
    pub fn has_operation(&self, method: &str, path: &str) -> bool {
        self.root.pointer(&format!("/paths/{}/{}", escape(path), method.to_lowercase())).is_some()
    }

    /// Validate one response. Panics (failing the test) when the status or media type is not
    /// documented for the operation, or the body does not match.
    pub fn check_response(&self, method: &str, path: &str, status: u16, content_type: &str, body: &[u8]) {
        let what = format!("{method} {path} {status}");
        let resp = self.response(method, path, status);
        let mime = content_type.split(';').next().unwrap_or("").trim();
        let media = resp
            .pointer(&format!("/content/{}", escape(mime)))
            .unwrap_or_else(|| panic!("{what}: media type {mime:?} is not documented"));
        let schema = &media["schema"];
        match mime {
            "application/json" | "application/problem+json" => {
                let v: Value = serde_json::from_slice(body).unwrap_or_else(|e| panic!("{what}: body is not JSON: {e}"));
                self.assert_valid(schema, &v, &what);
            }
            "application/x-ndjson" => {
                for line in body.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                    let v: Value = serde_json::from_slice(line).expect("each NDJSON line is JSON");
                    self.assert_valid(schema, &v, &format!("{what} (line)"));
                }
            }
            // YAML is a document (as schema tools that parse it see it).
            "application/yaml" => {
                let text = std::str::from_utf8(body).unwrap_or_else(|e| panic!("{what}: not UTF-8: {e}"));
                self.assert_valid(schema, &yaml_to_json(text), &what);
            }
            _ => {
                assert_eq!(self.resolve(schema)["type"], "string", "non-JSON bodies are documented as strings");
                assert!(std::str::from_utf8(body).is_ok(), "{what}: a text body is UTF-8");
            }
        }
    }

    /// Does a JSON request body match the operation's documented request schema? `None` when the
    /// operation documents no JSON body.
    pub fn request_is_valid(&self, method: &str, path: &str, body: &[u8]) -> Option<bool> {
        let op = self.root.pointer(&format!("/paths/{}/{}", escape(path), method.to_lowercase()))?;
        let schema = op.pointer("/requestBody/content/application~1json/schema")?;
        let Ok(v) = serde_json::from_slice::<Value>(body) else { return Some(false) };
        Some(self.validator(schema).is_valid(&v))
    }

    /// Check the response's headers against the ones documented for it (see [`Spec::check_headers`]).
    pub fn check_response_headers(&self, method: &str, path: &str, status: u16, headers: &reqwest::header::HeaderMap) {
        let what = format!("{method} {path} {status}");
        self.check_headers(self.response(method, path, status), headers, &what);
    }

    /// Every documented header: present when `required`, and when present, valid for its schema
    /// (headers are strings on the wire; an `integer` header must read as one).
    fn check_headers(&self, resp: &Value, headers: &reqwest::header::HeaderMap, what: &str) {
        let Some(documented) = resp.get("headers").and_then(Value::as_object) else { return };
        for (name, h) in documented {
            let h = self.resolve(h);
            let value = headers.get(name.as_str()).and_then(|v| v.to_str().ok());
            let Some(value) = value else {
                assert!(h["required"] != json!(true), "{what}: required header {name} is missing");
                continue;
            };
            let typed = match self.resolve(&h["schema"])["type"].as_str() {
                Some("integer") => value.parse::<i64>().map(Value::from).ok(),
                Some("number") => value.parse::<f64>().ok().map(Value::from),
                _ => Some(Value::from(value)),
            };
            let typed = typed.unwrap_or_else(|| panic!("{what}: header {name}: {value:?} is not of its type"));
            self.assert_valid(&h["schema"], &typed, &format!("{what}: header {name}"));
        }
    }

    pub fn assert_valid(&self, schema: &Value, v: &Value, what: &str) {
        let validator = self.validator(schema);
        let errors: Vec<String> =
            validator.iter_errors(v).map(|e| format!("{}: {e}", e.instance_path().as_str())).collect();
        assert!(errors.is_empty(), "{what}: does not match openapi.yaml:\n{}\nvalue: {v}", errors.join("\n"));
    }

    /// Named component schema, for tests that validate a value directly.
    pub fn schema(&self, name: &str) -> &Value {
        &self.root["components"]["schemas"][name]
    }
}
