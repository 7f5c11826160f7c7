//! `tabula bench`: how fast games are played on one thread, and, with
//! `--compare-with CMD`, the same figures of another program side by side
//! (see [`super::compare_with`]).

use std::time::{Duration, Instant};

use super::compare_with::{self, Figures};
use super::simulate::report_sim_error;
use super::{eprint_error, eprint_report, load_for_players, CmdResult, Failed, RulesetArgs};
use crate::agents::{parse_agents, AgentSpec, SearchStats};
use crate::model::Ruleset;
use crate::sim::{self, SimError};

/// The longest `tabula bench` may run, in seconds (a day).
const MAX_SECONDS: f64 = 86_400.0;

/// The options of `tabula bench`.
pub(super) struct BenchArgs {
    /// Seats (default: the ruleset's maximum).
    pub players: Option<usize>,
    /// How long to play.
    pub seconds: f64,
    /// The run's seed.
    pub seed: u64,
    /// One bot per seat (default: all random).
    pub agents: Option<String>,
    /// Decisions after which a game is given up.
    pub max_decisions: usize,
    /// A shell command whose `games/s:` line is shown beside ours.
    pub compare_with: Option<String>,
}

/// What one bench measured.
struct Measured {
    /// Games played (finished or given up).
    games: u64,
    /// Decisions made in them.
    decisions: u64,
    /// The time they took, in seconds.
    seconds: f64,
    /// Each seat's search, for the bots that search.
    search: Vec<SearchStats>,
}

/// Plays games between bots on one thread for `--seconds` and reports
/// games and decisions per second, and each searching seat's iterations
/// per second of its own thinking time; then, with `--compare-with`, runs
/// the other program and prints both figures with their ratio.
pub(super) fn bench(args: &RulesetArgs, b: BenchArgs) -> CmdResult {
    let (rules, players) = load_for_players(args, b.players)?;
    let seconds = b.seconds;
    if !seconds.is_finite() || !(0.0..=MAX_SECONDS).contains(&seconds) {
        eprint_error(format!(
            "--seconds must be a number from 0 to {MAX_SECONDS} (a day), not {seconds}"
        ));
        return Err(Failed);
    }
    if let Some(cmd) = &b.compare_with {
        compare_with::check_command(cmd).map_err(|r| {
            eprint_report(&r);
            Failed
        })?;
    }
    let specs = parse_agents(b.agents.as_deref(), players).map_err(|e| {
        eprint_error(e);
        Failed
    })?;
    let names: Vec<String> = specs.iter().map(|a| a.to_string()).collect();
    sayln!(
        "{}",
        super::applied::loaded_from(&crate::model::find_ruleset(&args.ruleset))
    );
    sayln!(
        "{}: {} players, {}; {}s on one thread; {}",
        rules.name,
        players,
        names.join(","),
        seconds,
        super::applied::describe(&rules)
    );
    let m = measure(&rules, &specs, &b)?;
    let t = m.seconds.max(1e-9);
    sayln!(
        "games/s: {:.3}  decisions/s: {:.0}  decisions/game: {:.1}",
        m.games as f64 / t,
        m.decisions as f64 / t,
        m.decisions as f64 / m.games as f64
    );
    for (seat, (s, name)) in m.search.iter().zip(&names).enumerate() {
        if s.iterations > 0 {
            sayln!(
                "seat {} {name}: iterations/s: {:.0}  ({} iterations in {:.2}s of search, {:.2}s per game)",
                seat + 1,
                s.iterations as f64 / s.seconds.max(1e-9),
                s.iterations,
                s.seconds,
                s.seconds / m.games as f64
            );
        }
    }
    let Some(cmd) = &b.compare_with else {
        return Ok(());
    };
    let ours = Figures {
        games: m.games as f64 / t,
        decisions: Some(m.decisions as f64 / t),
    };
    let asked = compare_with::Asked {
        seconds,
        players,
        seed: b.seed,
    };
    compare_with::run(cmd, &asked, &ours).map_err(|r| {
        eprint_report(&r);
        Failed
    })
}

/// Plays games one after the other until `b.seconds` have passed (at
/// least one game).
fn measure(
    rules: &std::sync::Arc<Ruleset>,
    specs: &[AgentSpec],
    b: &BenchArgs,
) -> Result<Measured, Failed> {
    let budget = Duration::from_secs_f64(b.seconds);
    let max_decisions = b.max_decisions;
    let start = Instant::now();
    let (mut games, mut decisions) = (0u64, 0u64);
    let mut search = vec![SearchStats::default(); specs.len()];
    let mut unfinished: Vec<(usize, u64)> = Vec::new();
    let mut unfinished_count = 0u64;
    let mut index = 0usize;
    loop {
        let game_seed = sim::game_seed(b.seed, index);
        let mut bots = sim::build_agents(rules, specs, game_seed).map_err(|e| {
            eprint_error(e);
            Failed
        })?;
        let (game, _, ending) = sim::play_until(rules, &mut bots, game_seed, max_decisions)
            .map_err(|f| {
                report_sim_error(&SimError {
                    game: index,
                    seed: game_seed,
                    decisions: f.decisions,
                    report: f.report,
                });
                Failed
            })?;
        for (total, bot) in search.iter_mut().zip(&bots) {
            let s = bot.search_stats();
            total.iterations += s.iterations;
            total.seconds += s.seconds;
        }
        games += 1;
        decisions += game.decisions_taken() as u64;
        if ending == sim::Ending::Unfinished {
            unfinished_count += 1;
            if unfinished.len() < 5 {
                unfinished.push((index, game_seed));
            }
        }
        index += 1;
        if start.elapsed() >= budget {
            break;
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    if unfinished_count > 0 {
        let shown: Vec<String> = unfinished
            .iter()
            .map(|(g, s)| format!("game {g} (seed {s})"))
            .collect();
        esayln!(
            "warning: {unfinished_count} of {games} games had not ended after {max_decisions} decision{} and were given up: {}{}",
            if max_decisions == 1 { "" } else { "s" },
            shown.join(", "),
            if unfinished_count > shown.len() as u64 { ", ..." } else { "" }
        );
    }
    Ok(Measured {
        games,
        decisions,
        seconds,
        search,
    })
}
