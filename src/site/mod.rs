//! Site context: what a site repeats on its pages (its template), how templates are kept, and which
//! site a page belongs to. One owner for the concept: the algorithms read a [`SiteTemplate`] (`auto`'s
//! rule `site-template`, through the contract), the engine says what a page teaches one
//! ([`PageSignatures`]), and `pith batch`, `pith eval`, `pith extract` and the service learn and keep
//! them with the types here (the service wraps [`SharedTemplate`] in its own cache, with a time to
//! live).
//!
//! | file | what lives there |
//! |---|---|
//! | `template.rs` | [`SiteTemplate`] (block-signature counts), [`PageSignatures`], [`SiteContext`], the bounds and the threshold ([`MIN_OTHER_PAGES`]) |
//! | `store.rs` | [`SiteStore`] (many sites, bounded), [`SharedTemplate`] (one site, shared between threads), [`registered_domain`] |

mod store;
mod template;

pub use store::{SharedTemplate, SiteStore, registered_domain};
pub use template::{
    MAX_PAGES, MAX_SIGNATURES, MIN_OTHER_PAGES, MIN_SITE_PAGES, PageSignatures, SiteContext, SiteTemplate,
};
