//! Inputs the fuzz targets (`fuzz/`) found, replayed as tests.

// The stream engine (fuzz target `stream`).

mod stream {
    use schemars::JsonSchema;
    use serde::Deserialize;
    use toolargs::stream::ArgsStream;
    use toolargs::{ArgsError, ToolArgs, normalizer::Options};

    #[derive(Debug, Deserialize, JsonSchema, ToolArgs, PartialEq)]
    #[allow(dead_code)]
    struct Act {
        action: String,
        note: Option<String>,
    }

    /// The first certain rejection, with the bytes received then, and the
    /// final result.
    type Run = (
        Option<(usize, ArgsError)>,
        Result<toolargs::tool_args::Parsed<Act>, ArgsError>,
    );

    /// `text` in fragments ending at `ends`.
    fn run(text: &[u8], ends: &[usize], options: Options) -> Run {
        let mut call = ArgsStream::<Act>::with_options(options);
        let (mut first, mut from) = (None, 0);
        for &to in ends {
            call.push_bytes(&text[from..to]);
            from = to;
            if first.is_none() {
                first = call.rejection().map(|e| (e.received, e.rejection));
            }
        }
        (first, call.finish())
    }

    /// Input `0d 00 5b 5b 7b 5b 7b`: `[[{[{` with `max_depth(4)` in one
    /// fragment. The text is broken at its fourth byte (a key must come);
    /// the text as a whole nests five deep, so its syntax error was not
    /// worded (the nesting limit comes first), while one-byte deltas worded
    /// it at the fourth byte: the rejection depended on the split. The
    /// error is now the parser's on the text up to the bytes it needs.
    #[test]
    fn a_bracket_past_the_broken_byte_does_not_change_the_syntax_error() {
        let text = b"[[{[{";
        let options = Options::default().max_depth(4);
        let whole = Act::from_model_with(std::str::from_utf8(text).unwrap(), &options);
        let (by_byte, _) = run(text, &[1, 2, 3, 4, 5], options);
        let (at, error) = by_byte.expect("rejected at the fourth byte");
        assert_eq!(at, 4);
        assert!(matches!(error, ArgsError::Syntax(_)), "{error:?}");
        for cut in 0..=text.len() {
            let (first, result) = run(text, &[cut, text.len()], options);
            let end = if cut >= at { cut } else { text.len() };
            assert_eq!(first, Some((end, error.clone())), "cut at {cut}");
            assert_eq!(result, whole);
        }
    }
}
