//! One error type for the whole library. The CLI prints it, the HTTP layer maps it to a status code.

/// Everything that can go wrong turning bytes into an [`crate::output::Extraction`].
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The input had no bytes at all.
    #[error("empty input: there is nothing to extract")]
    EmptyInput,
    /// The input looks like a binary file (image, PDF, archive), not HTML or text.
    #[error("binary input: {0}")]
    BinaryInput(String),
    /// The input is larger than the configured limit.
    #[error("input of {size} bytes is over the limit of {limit} bytes")]
    TooLarge { size: usize, limit: usize },
    /// A charset label the caller gave is not one the decoder knows.
    #[error("unknown charset label {0:?}")]
    UnknownCharset(String),
    /// An algorithm name that is not registered.
    #[error("unknown algorithm {name:?}; known: {known}")]
    UnknownAlgorithm { name: String, known: String },
    /// `--algorithm template` was asked for, but no site rule matches the page.
    #[error("no site template matches {0}")]
    NoTemplate(String),
    /// The algorithm reads the page's layout, and none was given (render the page first).
    #[error(
        "{0} needs the page laid out by a browser: ask for it with render, or use an algorithm that reads the HTML alone"
    )]
    NeedsLayout(String),
    /// The page could not be rendered (no browser, browser failure, timeout).
    #[error("{0}")]
    Render(String),
    /// The layout given was computed for a different parse of the page.
    #[error("the layout does not belong to this page (it was computed for a different parse)")]
    LayoutMismatch,
    /// The page would cost more than the work budget allows (too many elements or nodes): refused
    /// before the work is done, so that one hostile page cannot hold a worker or its memory.
    #[error("page too complex: {0}")]
    TooComplex(String),
    /// A configuration or model file could not be read or parsed.
    #[error("configuration: {0}")]
    Config(String),
    /// An I/O failure while reading input or datasets.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
}

impl Error {
    /// A short, stable machine-readable code, used by the HTTP problem documents.
    pub fn code(&self) -> &'static str {
        match self {
            Error::EmptyInput => "empty-input",
            Error::BinaryInput(_) => "binary-input",
            Error::TooLarge { .. } => "too-large",
            Error::UnknownCharset(_) => "unknown-charset",
            Error::UnknownAlgorithm { .. } => "unknown-algorithm",
            Error::NoTemplate(_) => "no-template",
            Error::NeedsLayout(_) => "needs-render",
            Error::LayoutMismatch => "layout-mismatch",
            Error::Render(_) => "render",
            Error::TooComplex(_) => "page-too-complex",
            Error::Config(_) => "config",
            Error::Io(_) => "io",
        }
    }
}
