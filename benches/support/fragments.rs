//! A text cut as a provider streams it, for the benches that feed a stream.

/// `text` cut every `delta` bytes, moved on to the next character
/// boundary (providers send text: a fragment is whole characters).
pub fn fragments(text: &str, delta: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let mut end = (start + delta).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        out.push(&text[start..end]);
        start = end;
    }
    out
}
