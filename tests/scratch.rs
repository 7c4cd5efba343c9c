#[test]
fn scratch() {
    for (path, r) in pnlab::positions::bundled_entries() {
        match r {
            Ok(v) => eprintln!(
                "{path}: {} entries; first {:?} {:?}",
                v.len(),
                v[0].name,
                v[0].expected
            ),
            Err(e) => eprintln!("{path}: ERROR {e}"),
        }
    }
}
