//! Whether a short byte string holds a byte of some kind, asked where the
//! answer is almost always "no" (a streamed fragment inside a string, a
//! string value without `&`).

/// Whether any byte of `bytes` passes `test`. Every byte is tested, without
/// an early exit: the compiler then compares 16 bytes at a time, which costs
/// less than a search that stops early when, as here, most texts hold none
/// (a search also pays its setup).
#[inline(always)]
pub(crate) fn holds_any(bytes: &[u8], test: impl Fn(u8) -> bool) -> bool {
    bytes.iter().fold(false, |seen, &byte| seen | test(byte))
}
