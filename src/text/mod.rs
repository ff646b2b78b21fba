//! Stages 1–2: bytes to text, and text before the parse.

pub mod decode;
pub mod hidden;
pub(crate) mod lexer;
pub mod nfkc;
pub mod prestrip;
pub mod words;
