//! The `tabula` command line.
//!
//! Every command takes a ruleset as a directory holding `game.yaml` or as a
//! name under `rules/`. Exit codes: 0 success, 1 a mistake in the rules or
//! the input, 2 a usage error (reported by clap). A closed stdout (`| head`)
//! is not an error: printing stops, files are still written, and the exit
//! code is the command's own (see [`output`]).

/// `print!` to stdout, quietly dropped once stdout is closed.
macro_rules! say {
    ($($t:tt)*) => { $crate::cli::output::out(format_args!($($t)*)) };
}
/// `println!` to stdout, quietly dropped once stdout is closed.
macro_rules! sayln {
    () => { $crate::cli::output::out(format_args!("\n")) };
    ($($t:tt)*) => { $crate::cli::output::out(format_args!("{}\n", format_args!($($t)*))) };
}
/// `eprint!` to stderr, quietly dropped once stderr is closed.
macro_rules! esay {
    ($($t:tt)*) => { $crate::cli::output::err(format_args!($($t)*)) };
}
/// `eprintln!` to stderr, quietly dropped once stderr is closed.
macro_rules! esayln {
    ($($t:tt)*) => { $crate::cli::output::err(format_args!("{}\n", format_args!($($t)*))) };
}

pub mod applied;
mod bench;
mod check;
mod compare;
mod compare_with;
pub mod draw;
mod jsonpos;
mod merge;
pub mod output;
pub mod pick;
mod play;
mod replay;
mod replay_html;
mod scenario;
mod serve;
mod simulate;
pub mod svg;
mod sweep;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};

use crate::model::{LoadError, Ruleset};

/// tabula: board games written as data. Check rulesets, simulate games
/// between bots, compare variants, play against bots, replay saved games.
#[derive(Debug, Parser)]
#[command(
    name = "tabula",
    version,
    about,
    long_about = None,
    after_help = "Exit codes: 0 success, 1 a mistake in the rules or the input (explained on \
                  stderr), 2 a usage error. A closed standard output (`tabula ... | head`) is \
                  not an error: printing stops, the files asked for are still written, and \
                  the exit code is the command's own."
)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The ruleset argument and its variants, shared by several commands.
#[derive(Debug, clap::Args)]
pub struct RulesetArgs {
    /// The ruleset: a directory holding game.yaml, or a name under rules/
    /// (e.g. `nim` for rules/nim).
    #[arg(value_name = "RULESET")]
    pub ruleset: String,
    /// A variant to apply: the name of a file of the ruleset's variants/
    /// (without .yaml), or the path of a variant file anywhere (a value
    /// holding `/` or ending in .yaml or .yml, from the current
    /// directory); repeat to compose variants, applied in order.
    #[arg(long = "variant", value_name = "NAME|PATH")]
    pub variants: Vec<String>,
    /// Set a parameter of the ruleset's `params:` for this run, after the
    /// variants: NAME=VALUE, the value written as in YAML (3, true, an item
    /// id, [1, 2]); checked like a data file (an unknown name or a value of
    /// another type is an error). Repeatable. `tabula sweep` also takes
    /// NAME=a..b or NAME=a..b:step, the values to sweep.
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = applied::parse_set)]
    pub set: Vec<(String, String)>,
    /// Check the rules' `legal;` statements: at every decision also run
    /// each option in full, and stop with an error where `legal;` lets
    /// through an option the full run refuses (slow). With `check`, plays
    /// random games at every player count to do so.
    #[arg(long)]
    pub check_legal: bool,
}

/// What a simulation plays: shared by `simulate` and `compare`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Number of players (default: the ruleset's maximum).
    #[arg(long, short = 'p', value_name = "N")]
    pub players: Option<usize>,
    /// Number of games to play (in the whole run, when sharded).
    #[arg(long, short = 'g', value_name = "G", default_value_t = 1000)]
    pub games: usize,
    /// The run seed; each game's seed is derived from it and the game's index.
    #[arg(long, short = 's', value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// One bot per seat, separated by commas: random, greedy, mcts,
    /// mcts:iterations=N, mcts:ms=N (default: random in every seat). greedy
    /// looks one decision ahead, valuing positions with the rules'
    /// `fn evaluate(p: player) -> int` if declared, else with the score.
    #[arg(long, value_name = "A,B,...")]
    pub agents: Option<String>,
    /// Threads to play on (default: one per core; at most 256). Results do
    /// not depend on it.
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// Decisions after which a game that has not ended is given up and
    /// reported as unfinished, with its seed (the run goes on).
    #[arg(long, value_name = "N", default_value_t = crate::sim::MAX_DECISIONS,
          value_parser = decision_limit)]
    pub max_decisions: usize,
    /// No progress bar (it is shown only when stderr is a terminal anyway).
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// The files a simulation (or a merge) writes.
#[derive(Debug, clap::Args)]
pub struct OutputArgs {
    /// Write the statistics and every game's record to FILE as JSON
    /// (identical for identical arguments, whatever --jobs).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write one CSV row per game to FILE.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write a self-contained HTML page (score histograms, win-rate bars) to FILE.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Load and check a ruleset; print a summary, or every mistake found.
    Check {
        /// The ruleset and variants.
        #[command(flatten)]
        rules: RulesetArgs,
        /// Instead of the summary, print the compiled code of the function
        /// or procedure FN (every one of that name; `all`: every function),
        /// one instruction per line.
        #[arg(long, value_name = "FN")]
        dump: Option<String>,
    },
    /// Play many games between bots (in parallel) and print statistics.
    ///
    /// The games of a run are reproducible: game i's seed comes from the run
    /// seed and i, so the JSON is identical for any --jobs, and a run split
    /// with --shard and joined with `tabula merge` equals the whole run.
    Simulate {
        /// The ruleset and variants.
        #[command(flatten)]
        rules: RulesetArgs,
        /// Players, games, seed, bots, threads.
        #[command(flatten)]
        run: RunArgs,
        /// Play only the i-th of n contiguous slices of the games, i counted
        /// from 1 (1/4, 2/4, 3/4, 4/4); join the outputs with `tabula merge`.
        #[arg(long, value_name = "i/n")]
        shard: Option<String>,
        /// Where to write the results.
        #[command(flatten)]
        out: OutputArgs,
    },
    /// Play the same seeds over a grid of parameter values and tabulate
    /// each point's win rates, first-player advantage, shared wins, mean
    /// score and length.
    ///
    /// Each `--set NAME=a..b` (or `a..b:step`, both ends included) is an
    /// axis of the grid; `--set NAME=VALUE` fixes a value at every point.
    /// Every point plays the games `simulate --set NAME=value` plays with
    /// the same seed.
    Sweep {
        /// The ruleset, variants and parameters (ranges swept).
        #[command(flatten)]
        rules: RulesetArgs,
        /// Players, games, seed, bots, threads.
        #[command(flatten)]
        run: RunArgs,
        /// Write every point's values and statistics to FILE as JSON.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Write a self-contained HTML page (inline SVG charts of each
        /// measure against the values) to FILE.
        #[arg(long, value_name = "FILE.html")]
        html: Option<PathBuf>,
    },
    /// Join the JSON outputs of the shards of one run (`simulate --shard`)
    /// into the output of the whole run.
    Merge {
        /// The shards' JSON files (any order).
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
        /// Where to write the results.
        #[command(flatten)]
        out: OutputArgs,
    },
    /// Play the same games under two rule sets and report what changed,
    /// with its significance.
    Compare {
        /// The ruleset: a directory holding game.yaml, or a name under rules/.
        #[arg(value_name = "RULESET")]
        ruleset: String,
        /// A variant of the rule set under test, by name or path (repeat to
        /// compose; `base` for none).
        #[arg(long = "variant", value_name = "NAME|PATH")]
        variants: Vec<String>,
        /// A variant of the baseline rule set, by name or path (repeat to
        /// compose; `base` or nothing for the base rules).
        #[arg(long = "against", value_name = "NAME|PATH")]
        against: Vec<String>,
        /// Set a parameter of the rule set under test: NAME=VALUE
        /// (repeatable).
        #[arg(long = "set", value_name = "NAME=VALUE", value_parser = applied::parse_set)]
        set: Vec<(String, String)>,
        /// Set a parameter of the baseline rule set: NAME=VALUE
        /// (repeatable).
        #[arg(long = "against-set", value_name = "NAME=VALUE", value_parser = applied::parse_set)]
        against_set: Vec<(String, String)>,
        /// Players, games, seed, bots, threads.
        #[command(flatten)]
        run: RunArgs,
        /// Write the comparison to FILE as JSON.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Write the A/B page to FILE.html (self-contained: inline SVG,
        /// no script).
        #[arg(long, value_name = "FILE.html")]
        report: Option<PathBuf>,
    },
    /// Play a game at the terminal against random bots.
    Play {
        /// The ruleset and variants.
        #[command(flatten)]
        rules: RulesetArgs,
        /// Number of players.
        #[arg(long, short = 'p', value_name = "N")]
        players: usize,
        /// Your seat, counted from 0 (seats are shown by name: seat 0 is the
        /// first seat name of the ruleset, e.g. p1), or a seat name.
        #[arg(long, value_name = "K", default_value = "0")]
        seat: String,
        /// The game's seed (it drives the rules' randomness and the bots).
        #[arg(long, short = 's', value_name = "S", default_value_t = 0)]
        seed: u64,
        /// Save the game log (JSON) to FILE when the game ends or input runs out.
        #[arg(long, value_name = "FILE")]
        log: Option<PathBuf>,
        /// Decisions after which a game that has not ended is stopped (and
        /// its log saved) as unfinished.
        #[arg(long, value_name = "N", default_value_t = crate::sim::MAX_DECISIONS,
              value_parser = decision_limit)]
        max_decisions: usize,
        /// Draw the board in plain text (also when stdout is not a terminal).
        #[arg(long)]
        no_color: bool,
    },
    /// Serve a page on the loopback interface to play against random bots
    /// in the browser: the board and panels of the ruleset's view; click an
    /// option or a cell to decide.
    Serve {
        /// The ruleset and variants.
        #[command(flatten)]
        rules: RulesetArgs,
        /// Number of players.
        #[arg(long, short = 'p', value_name = "N", default_value_t = 2)]
        players: usize,
        /// Your seat, counted from 0.
        #[arg(long, value_name = "K", default_value_t = 0)]
        seat: usize,
        /// The game's seed (it drives the rules' randomness and the bots).
        #[arg(long, short = 's', value_name = "S", default_value_t = 0)]
        seed: u64,
        /// The port on 127.0.0.1 (0: any free port; the address is printed).
        #[arg(long, value_name = "PORT", default_value_t = 8080)]
        port: u16,
        /// Decisions after which the bots stop playing.
        #[arg(long, value_name = "N", default_value_t = crate::sim::MAX_DECISIONS,
              value_parser = decision_limit)]
        max_decisions: usize,
    },
    /// Run scenario files (or every scenario under directories).
    Scenario {
        /// Scenario files or directories.
        #[arg(value_name = "FILE|DIR", required = true)]
        paths: Vec<PathBuf>,
        /// The ruleset to run them against (a directory, or a name under
        /// rules/), in place of the one each file names. A file may only
        /// name a ruleset under rules/ or a relative path without `..`:
        /// give any other directory here.
        #[arg(long, value_name = "RULESET")]
        ruleset: Option<String>,
        /// A variant applied after those each file names, by name or path
        /// (repeat to compose).
        #[arg(long = "variant", value_name = "NAME|PATH")]
        variants: Vec<String>,
        /// Set a parameter of the ruleset's `params:` after every variant:
        /// NAME=VALUE (repeat for several).
        #[arg(long = "set", value_name = "NAME=VALUE", value_parser = applied::parse_set)]
        set: Vec<(String, String)>,
    },
    /// Check a rulebook text against the ruleset (docs/TRANSLATE.md).
    Translate(crate::translate::TranslateArgs),
    /// Replay a saved game log and verify its result and final state.
    Replay {
        /// The game log (JSON, as written by `play --log`).
        #[arg(value_name = "LOG")]
        log: PathBuf,
        /// Where the ruleset is, if not found from the log's ruleset id
        /// (a directory, or a name under rules/). A log may only name a
        /// ruleset under rules/ or a relative path without `..`: give any
        /// other directory here.
        #[arg(long, value_name = "RULESET")]
        ruleset: Option<String>,
        /// Replay a log that lacks `result` or `state_hash` (one written by
        /// hand): the decisions are replayed, but what is missing is not
        /// verified. Without it such a log is refused.
        #[arg(long)]
        unverified: bool,
        /// Also write a self-contained page stepping through every decision
        /// (board, options, the one taken, scores) to FILE.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
    /// Measure how fast games are played on one thread (random bots
    /// unless --agents names others; search bots report iterations/s), and
    /// beside another program's figures with --compare-with.
    Bench {
        /// The ruleset and variants.
        #[command(flatten)]
        rules: RulesetArgs,
        /// Number of players (default: the ruleset's maximum).
        #[arg(long, short = 'p', value_name = "N")]
        players: Option<usize>,
        /// How long to play, in seconds (at most 86400, a day; 0 plays one game).
        #[arg(long, value_name = "S", default_value_t = 10.0)]
        seconds: f64,
        /// The seed of the first game.
        #[arg(long, short = 's', value_name = "S", default_value_t = 0)]
        seed: u64,
        /// One bot per seat, as for `simulate` (default: all random), e.g.
        /// `mcts:iterations=300,random,random,random`.
        #[arg(long, value_name = "A,B,...")]
        agents: Option<String>,
        /// Decisions after which a game that has not ended stops the bench
        /// with an error naming its seed.
        #[arg(long, value_name = "N", default_value_t = crate::sim::MAX_DECISIONS,
              value_parser = decision_limit)]
        max_decisions: usize,
        /// After the bench, run CMD (a shell command: `sh -c CMD`) measuring
        /// the same game elsewhere, read the line `games/s: N` (and
        /// `decisions/s: N`, if any) from its standard output, and print
        /// both with their ratio. CMD finds the bench's settings in
        /// TABULA_BENCH_SECONDS, TABULA_BENCH_PLAYERS and TABULA_BENCH_SEED;
        /// it may run ten times --seconds plus two minutes. A command that
        /// fails or prints no such line is an error (exit code 1). See
        /// docs/BENCH.md for the recipes (an engine of the same game, a
        /// library driven from Python, another build of tabula).
        #[arg(long, value_name = "CMD")]
        compare_with: Option<String>,
    },
}

/// Parses `--max-decisions`: a whole number from 1.
fn decision_limit(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("the limit must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{s}` is not a whole number")),
    }
}

/// A failure already explained to the user: the process exits with 1.
#[derive(Debug)]
pub struct Failed;

/// The result of a command.
pub type CmdResult = Result<(), Failed>;

/// Parses the arguments and runs the command; returns the exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    run(cli)
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    let r = match cli.command {
        Command::Check { rules, dump } => check::run(&rules, dump.as_deref()),
        Command::Simulate {
            rules,
            run,
            shard,
            out,
        } => simulate::simulate(&rules, &run, shard.as_deref(), &out),
        Command::Merge { files, out } => merge::run(&files, &out),
        Command::Sweep {
            rules,
            run,
            json,
            html,
        } => sweep::run(&rules, &run, json.as_deref(), html.as_deref()),
        Command::Compare {
            ruleset,
            variants,
            against,
            set,
            against_set,
            run,
            json,
            report,
        } => compare::run(
            &ruleset,
            (&variants, &set),
            (&against, &against_set),
            &run,
            (json.as_deref(), report.as_deref()),
        ),
        Command::Play {
            rules,
            players,
            seat,
            seed,
            log,
            max_decisions,
            no_color,
        } => play::run(
            &rules,
            players,
            &seat,
            seed,
            log.as_deref(),
            max_decisions,
            no_color,
        ),
        Command::Serve {
            rules,
            players,
            seat,
            seed,
            port,
            max_decisions,
        } => serve::run(&rules, players, seat, seed, port, max_decisions),
        Command::Scenario {
            paths,
            ruleset,
            variants,
            set,
        } => scenario::run(&paths, ruleset.as_deref(), (&variants, &set)),
        Command::Translate(args) => {
            let out = crate::translate::cli_run(&args);
            say!("{}", out.stdout);
            esay!("{}", out.stderr);
            return ExitCode::from(out.code.clamp(0, 255) as u8);
        }
        Command::Replay {
            log,
            ruleset,
            unverified,
            html,
        } => replay::run(&log, ruleset.as_deref(), unverified, html.as_deref()),
        Command::Bench {
            rules,
            players,
            seconds,
            seed,
            agents,
            max_decisions,
            compare_with,
        } => bench::bench(
            &rules,
            bench::BenchArgs {
                players,
                seconds,
                seed,
                agents,
                max_decisions,
                compare_with,
            },
        ),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failed) => ExitCode::from(1),
    }
}

/// Prints a miette report to stderr (graphical; coloured on a terminal).
pub fn eprint_report(report: &miette::Report) {
    let theme = if std::io::stderr().is_terminal() {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    let mut handler = miette::GraphicalReportHandler::new_themed(theme);
    // Reports wrap at 80 columns, or at `COLUMNS` when it is set.
    if let Some(width) = std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()) {
        handler = handler.with_width(width);
    }
    let mut out = String::new();
    if handler.render_report(&mut out, report.as_ref()).is_err() {
        out = format!("{report}\n");
    }
    esay!("{out}");
}

/// Prints an error message to stderr.
pub fn eprint_error(msg: impl std::fmt::Display) {
    esayln!("error: {msg}");
}

/// Loads a ruleset, printing every diagnostic on failure.
pub fn load_rules(args: &RulesetArgs) -> Result<Arc<Ruleset>, Failed> {
    let mut rules = load_named(&args.ruleset, &args.variants, &args.set)?;
    if args.check_legal {
        if let Some(r) = Arc::get_mut(&mut rules) {
            r.check_legal = true;
        }
    }
    Ok(rules)
}

/// `rules` (loaded from `dir`) with its declared view (`view.yaml`)
/// attached, printing every diagnostic on failure.
pub fn with_view(rules: Arc<Ruleset>, dir: &std::path::Path) -> Result<Arc<Ruleset>, Failed> {
    let mut r = Arc::unwrap_or_clone(rules);
    if let Err(d) = crate::model::attach_view(dir, &mut r) {
        for r in d.reports() {
            eprint_report(&r);
        }
        esayln!(
            "{} error(s) found in the view of `{}`",
            d.items.len(),
            dir.display()
        );
        return Err(Failed);
    }
    Ok(Arc::new(r))
}

/// Loads the ruleset named `arg` with `variants` and the parameters `set`,
/// printing every diagnostic on failure.
pub fn load_named(
    arg: &str,
    variants: &[String],
    set: &[(String, String)],
) -> Result<Arc<Ruleset>, Failed> {
    load_dir(&crate::model::find_ruleset(arg), variants, set)
}

/// Loads the ruleset in `dir` with `variants` and the parameters `set`,
/// printing every diagnostic on failure.
pub fn load_dir(
    dir: &std::path::Path,
    variants: &[String],
    set: &[(String, String)],
) -> Result<Arc<Ruleset>, Failed> {
    match crate::model::load_with(dir, variants, set) {
        Ok(r) => Ok(Arc::new(r)),
        Err(LoadError::Invalid(d)) => {
            for r in d.reports() {
                eprint_report(&r);
            }
            let n = d.items.len();
            esayln!(
                "{n} error{} found in `{}`",
                if n == 1 { "" } else { "s" },
                dir.display()
            );
            Err(Failed)
        }
        Err(e) => {
            eprint_report(&miette::Report::new(e));
            Err(Failed)
        }
    }
}

/// `rules` (of the ruleset in `dir`) for a game of `players`: loaded again
/// with the variants `game.yaml` names for that count
/// (`variants_by_players:`) before its own, when it lacks them.
pub fn for_players(
    rules: Arc<Ruleset>,
    dir: &std::path::Path,
    players: usize,
) -> Result<Arc<Ruleset>, Failed> {
    let mut needed = rules.missing_variants(players);
    if needed.is_empty() {
        return Ok(rules);
    }
    needed.extend(rules.variants.iter().cloned());
    let mut again = load_dir(dir, &needed, &rules.overrides)?;
    if let Some(r) = Arc::get_mut(&mut again) {
        r.check_legal = rules.check_legal;
    }
    Ok(again)
}

/// Loads the ruleset of `args` for a game of `players` (checked against
/// it, default its maximum), with the variants that count needs.
pub fn load_for_players(
    args: &RulesetArgs,
    players: Option<usize>,
) -> Result<(Arc<Ruleset>, usize), Failed> {
    let rules = load_rules(args)?;
    let players = player_count(&rules, players)?;
    let dir = crate::model::find_ruleset(&args.ruleset);
    Ok((for_players(rules, &dir, players)?, players))
}

/// Checks a player count against the ruleset, defaulting to its maximum.
pub fn player_count(rules: &Ruleset, players: Option<usize>) -> Result<usize, Failed> {
    let n = players.unwrap_or(rules.max_players);
    if n < rules.min_players || n > rules.max_players {
        eprint_error(format!(
            "{} is played by {} to {} players, not {n}",
            rules.name, rules.min_players, rules.max_players
        ));
        return Err(Failed);
    }
    Ok(n)
}

/// The display name of every seat of a game with `players` players.
pub fn seat_names(rules: &Ruleset, players: usize) -> Vec<String> {
    (0..players)
        .map(|p| {
            rules.display(
                &crate::ir::ruleset::Ty::Ent(crate::ir::ruleset::PLAYER),
                p as i64,
                players,
            )
        })
        .collect()
}
