//! Every error of one derive, recorded as the stages find them and reported
//! together: a struct with three mistakes shows three errors, each on its token.

use std::fmt::Display;

use proc_macro2::Span;
use quote::ToTokens;

/// The errors found so far.
#[derive(Default)]
pub struct Errors {
    errors: Vec<syn::Error>,
}

impl Errors {
    /// No errors yet.
    pub fn new() -> Self {
        Errors::default()
    }

    /// Records `error`.
    pub fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// Records `message` at `span`.
    pub fn at(&mut self, span: Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    /// Records `message` on `tokens`, from their first token to their last.
    pub fn on(&mut self, tokens: impl ToTokens, message: impl Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    /// The value of `result`, or `None` with its error recorded.
    pub fn handle<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(error) => {
                self.push(error);
                None
            }
        }
    }

    /// `Ok` when nothing was recorded; otherwise every error, as one.
    pub fn finish(self) -> syn::Result<()> {
        let mut errors = self.errors.into_iter();
        match errors.next() {
            None => Ok(()),
            Some(mut first) => {
                first.extend(errors);
                Err(first)
            }
        }
    }

    /// The errors' messages, in the order recorded (for tests).
    #[cfg(test)]
    pub fn messages(&self) -> Vec<String> {
        self.errors
            .iter()
            .flat_map(|error| error.clone().into_iter())
            .map(|error| error.to_string())
            .collect()
    }
}
