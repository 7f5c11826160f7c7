//! One test runs every scenario file of every game (`rules/*/examples/*.yaml`):
//! each must pass all its assertions (the rulebook's numbers), and its
//! transcript is recorded as an insta snapshot beside the test.

use std::path::Path;

#[test]
fn every_scenario_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    insta::glob!(root, "rules/*/examples/*.yaml", |path| {
        let outcome =
            tabula::scenario::run_file(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            outcome.passed(),
            "{}:\n{}",
            path.display(),
            outcome.failures.render_plain()
        );
        assert!(outcome.assertions > 0, "{} asserts nothing", path.display());
        insta::assert_snapshot!(outcome.transcript.join("\n"));
    });
}
