//! Stage 4: the seed papers' algorithms, one module each, and `auto`, which combines them; all read the
//! same [`crate::dom::Document`] through a [`crate::algorithms::contract::Context`].
//!
//! Every algorithm returns a [`crate::algorithms::contract::Outcome`]: which nodes (or, for the
//! line-based method, which text) make up the main content, a has-article probability, and the blocks
//! it scored with its measures, so a user can see why. The seed modules do not import each other's
//! internals or `auto`; `auto` reads the seed methods through the measures they publish
//! ([`cetd::DensitySumRun`], [`pvalue::PValues`], [`bayes::BayesBlocks`], [`anchor_ratio::AnchorRatios`]).
//!
//! [`Algorithm`] is the one list of what can be selected: its name (parsed and printed in one place),
//! its description, and what it needs from the page.

pub mod anchor_ratio;
pub mod auto;
pub mod bayes;
pub mod cehtd;
pub mod cetd;
pub mod contract;
pub mod dom_stats;
pub mod line_density;
pub mod pvalue;
pub mod records;
pub mod template;
pub mod vips;

use std::fmt;
use std::str::FromStr;

/// Every algorithm's parameters (defined in the contract, which every algorithm reads).
pub use crate::algorithms::contract::params::Params;
use crate::algorithms::contract::{Context, Outcome};

/// A selectable algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    Auto,
    CetdDs,
    CectdDs,
    CectdS,
    PValue,
    Bayes,
    AnchorRatio,
    LineDensity,
    DomStats,
    Template,
    Vips,
    CehtdDs,
}

/// Every selectable algorithm, `auto` first.
pub const ALGORITHMS: &[Algorithm] = &Algorithm::ALL;

/// What an algorithm reads besides the parsed tree, so that the engine prepares only that.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Needs {
    /// The pre-stripped source text (kept whole, with line breaks): the line-based method reads lines.
    pub source: bool,
    /// What the page declares about itself (`og:type`, JSON-LD types), scanned from the decoded text
    /// before pre-strip removes the scripts that carry it.
    pub declarations: bool,
    /// What a site rule matching the page's URL does to the answer.
    pub site_rule: SiteRuleUse,
    /// The page laid out by a browser ([`crate::dom::layout::Layout`]): the visual methods read element
    /// boxes and computed styles.
    pub layout: bool,
}

/// How an algorithm uses a site rule (`config/sites`) that matches the page. Whatever the algorithm,
/// the rule's noise selectors clean the page before it is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SiteRuleUse {
    /// The rule's content is not used.
    Ignore,
    /// The rule's content replaces the algorithm's when the rule finds any.
    Prefer,
    /// The rule is the algorithm: a page without a matching rule is an error.
    Require,
}

impl Algorithm {
    pub const ALL: [Algorithm; 12] = [
        Algorithm::Auto,
        Algorithm::CetdDs,
        Algorithm::CectdDs,
        Algorithm::CectdS,
        Algorithm::PValue,
        Algorithm::Bayes,
        Algorithm::AnchorRatio,
        Algorithm::LineDensity,
        Algorithm::DomStats,
        Algorithm::Template,
        Algorithm::Vips,
        Algorithm::CehtdDs,
    ];

    /// The name used on the command line, in requests and in answers.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::CetdDs => "cetd-ds",
            Algorithm::CectdDs => "cectd-ds",
            Algorithm::CectdS => "cectd-s",
            Algorithm::PValue => "p-value",
            Algorithm::Bayes => "bayes",
            Algorithm::AnchorRatio => "anchor-ratio",
            Algorithm::LineDensity => "line-density",
            Algorithm::DomStats => "dom-stats",
            Algorithm::Template => "template",
            Algorithm::Vips => "vips",
            Algorithm::CehtdDs => "cehtd-ds",
        }
    }

    /// One line on what the algorithm does and where it comes from.
    pub const fn description(self) -> &'static str {
        match self {
            Algorithm::Auto => {
                "default: every seed measure per text block, weighed by a learned two-stage classifier; has-article model"
            }
            Algorithm::CetdDs => "Text Density + DensitySum + threshold (Sun, Song & Liao)",
            Algorithm::CectdDs => "Composite Text Density (link-aware) + DensitySum (Sun, Song & Liao)",
            Algorithm::CectdS => {
                "Composite Text Density with sibling smoothing instead of DensitySum (Sun, Song & Liao)"
            }
            Algorithm::PValue => {
                "P = (l_t/l_s)·(l_vt/L_VT) per tag; max-P tag is the text, page P the has-article probability (Lv et al.)"
            }
            Algorithm::Bayes => {
                "Naive Bayes block classifier over four binned block features, trained on labelled pages (Wang et al.)"
            }
            Algorithm::AnchorRatio => {
                "XPath blocks with AR = 0.75·ATR + 0.25·ANR, leaves kept when AR < 60% (Thanadechteemapat & Fung)"
            }
            Algorithm::LineDensity => {
                "tag-stripped source lines grouped by blank lines, blocks kept over a length threshold (survey §2.1)"
            }
            Algorithm::DomStats => {
                "DOM nodes whose text/link count and length ratios pass a threshold, merged in preorder (survey §2.2)"
            }
            Algorithm::Template => {
                "per-site rules from config/sites: CSS selectors for content and noise (survey §1, wrappers)"
            }
            Algorithm::Vips => {
                "vision-based page segmentation: visual blocks, weighted separators, DoC against PDoC (survey §3); renders"
            }
            Algorithm::CehtdDs => {
                "Hybrid Text Density: CTD with characters weighted by Visual Importance, + DensitySum (Sun, Song & Liao); renders"
            }
        }
    }

    /// What the algorithm reads besides the parsed tree.
    pub const fn needs(self) -> Needs {
        let tree_only = Needs { source: false, declarations: false, site_rule: SiteRuleUse::Ignore, layout: false };
        match self {
            Algorithm::Auto => Needs { declarations: true, site_rule: SiteRuleUse::Prefer, ..tree_only },
            Algorithm::LineDensity => Needs { source: true, ..tree_only },
            Algorithm::Template => Needs { site_rule: SiteRuleUse::Require, ..tree_only },
            Algorithm::Vips | Algorithm::CehtdDs => Needs { layout: true, ..tree_only },
            _ => tree_only,
        }
    }

    /// Run the algorithm on a page. `models` holds what the learned methods read (`bayes` its own
    /// model, `auto` all three). `template` answers nothing here: its content is the site rule's,
    /// which the engine applies after scoring (see [`SiteRuleUse`]).
    pub fn run(self, ctx: &Context<'_>, models: &auto::ModelRefs<'_>) -> Outcome {
        match self {
            Algorithm::Auto => auto::run(ctx, models),
            Algorithm::CetdDs => cetd::run_density_sum(ctx, cetd::Density::Text),
            Algorithm::CectdDs => cetd::run_density_sum(ctx, cetd::Density::Composite),
            Algorithm::CectdS => cetd::run_smoothed(ctx),
            Algorithm::PValue => pvalue::run(ctx),
            Algorithm::Bayes => bayes::run(ctx, models.bayes),
            Algorithm::AnchorRatio => anchor_ratio::run(ctx),
            Algorithm::LineDensity => line_density::run(ctx),
            Algorithm::DomStats => dom_stats::run(ctx),
            Algorithm::Template => Outcome::empty(),
            Algorithm::Vips => vips::run(ctx),
            Algorithm::CehtdDs => cehtd::run(ctx),
        }
    }

    /// Every name, for messages.
    fn known() -> String {
        names().join(", ")
    }
}

/// Names only, in the order of [`ALGORITHMS`].
pub fn names() -> Vec<&'static str> {
    ALGORITHMS.iter().map(|a| a.name()).collect()
}

impl FromStr for Algorithm {
    type Err = crate::error::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ALGORITHMS
            .iter()
            .copied()
            .find(|a| a.name() == s)
            .ok_or_else(|| crate::error::Error::UnknownAlgorithm { name: s.to_string(), known: Algorithm::known() })
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Algorithm {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Algorithm {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_unknown_names_are_errors() {
        for a in ALGORITHMS {
            assert_eq!(a.name().parse::<Algorithm>().unwrap(), *a);
            assert_eq!(a.to_string(), a.name());
            assert!(!a.description().is_empty());
        }
        assert!(matches!("magic".parse::<Algorithm>(), Err(crate::error::Error::UnknownAlgorithm { .. })));
        assert_eq!(ALGORITHMS[0], Algorithm::Auto);
        assert!(Algorithm::LineDensity.needs().source && !Algorithm::Auto.needs().source);
    }
}
