//! The example programs compile and do what they claim.

#[path = "../examples/custom_bot.rs"]
mod custom_bot;

#[test]
fn lookahead_bot_beats_random_at_nim() {
    let r = custom_bot::run(100).expect("the match runs");
    assert_eq!(r.games, 100);
    assert_eq!(r.lookahead_wins + r.random_wins, 100);
    // A bot that never misses a winning take and never leaves one to its
    // opponent wins far more than half of its games against a random bot.
    assert!(
        r.lookahead_wins >= 75,
        "lookahead won only {} of 100",
        r.lookahead_wins
    );
}
