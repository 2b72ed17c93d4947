//! Move text: any string either fails to read with a reason, or reads as a move whose
//! canonical text reads back as the same move.
#![no_main]

use genial::Move;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match text.parse::<Move>() {
        Ok(m) => {
            let again: Move = m.to_string().parse().expect("canonical text reads back");
            assert_eq!(again, m, "{text:?}");
        }
        Err(e) => assert!(e.0.starts_with("cannot read move"), "{text:?}: {e}"),
    }
});
