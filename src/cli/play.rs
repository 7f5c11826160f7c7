//! `tabula play`: a human at the terminal against random bots.

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

use super::draw::{self, Style};
use super::pick::pick;
use super::{eprint_error, load_for_players, seat_names, CmdResult, Failed, RulesetArgs};
use crate::agents::{Agent, RandomAgent};
use crate::engine::picture::Picture;
use crate::engine::{ApplyError, Game, GameLog};

fn fail(game: &Game, e: &ApplyError) -> Failed {
    match e {
        ApplyError::Runtime(r) => esay!("{}", game.report(r)),
        other => eprint_error(other),
    }
    Failed
}

fn parse_seat(arg: &str, names: &[String]) -> Result<usize, Failed> {
    if let Ok(k) = arg.parse::<usize>() {
        if k < names.len() {
            return Ok(k);
        }
        eprint_error(format!(
            "--seat {k} is out of range: seats are 0 to {} ({})",
            names.len() - 1,
            names.join(", ")
        ));
        return Err(Failed);
    }
    if let Some(k) = names.iter().position(|n| n == arg) {
        return Ok(k);
    }
    eprint_error(format!(
        "no seat `{arg}`: give a number from 0 to {} or a seat name ({})",
        names.len() - 1,
        names.join(", ")
    ));
    Err(Failed)
}

fn save_log(game: &mut Game, path: Option<&Path>) -> CmdResult {
    let Some(path) = path else { return Ok(()) };
    let log = GameLog::of(game);
    let text = serde_json::to_string_pretty(&log).map_err(|e| {
        eprint_error(format!("cannot serialise the log: {e}"));
        Failed
    })?;
    std::fs::write(path, text + "\n").map_err(|e| {
        eprint_error(format!("cannot write `{}`: {e}", path.display()));
        Failed
    })?;
    sayln!("log saved to {}", path.display());
    Ok(())
}

/// Prints the whole view the first time, then only what changed since the
/// player's previous decision.
fn print_view(view: &[String], last: Option<&[String]>) {
    let Some(last) = last else {
        for l in view {
            sayln!("  {l}");
        }
        return;
    };
    let key = |l: &str| l.split(" = ").next().unwrap_or(l).to_string();
    let mut changed = 0;
    for l in view {
        if !last.contains(l) {
            if changed == 0 {
                sayln!("changes since your last decision (`v` shows the whole state):");
            }
            sayln!("  {l}");
            changed += 1;
        }
    }
    for l in last {
        let k = key(l);
        if !view.iter().any(|v| key(v) == k) {
            if changed == 0 {
                sayln!("changes since your last decision (`v` shows the whole state):");
            }
            sayln!("  {k} cleared");
            changed += 1;
        }
    }
    if changed == 0 {
        sayln!("nothing visible changed since your last decision");
    }
}

/// `tabula play`: seat `seat` is the human at the terminal, the others are
/// random bots; the game is saved to `log` when given. A game still going
/// after `max_decisions` decisions is stopped (and saved).
pub(super) fn run(
    args: &RulesetArgs,
    players: usize,
    seat: &str,
    seed: u64,
    log: Option<&Path>,
    max_decisions: usize,
    no_color: bool,
) -> CmdResult {
    let style = Style {
        colour: !no_color && std::io::stdout().is_terminal(),
    };
    let (rules, players) = load_for_players(args, Some(players))?;
    let rules = super::with_view(rules, &crate::model::find_ruleset(&args.ruleset))?;
    let names = seat_names(&rules, players);
    let me = parse_seat(seat, &names)?;
    // A log that cannot be written is said now, not after the game.
    if let Some(path) = log {
        std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| {
                eprint_error(format!("cannot write `{}`: {e}", path.display()));
                Failed
            })?;
    }
    let mut game = Game::new(rules.clone(), players, seed).map_err(|e| {
        match &e {
            ApplyError::Runtime(r) => esay!("{}", crate::engine::view::report(&rules, r)),
            other => eprint_error(other),
        }
        Failed
    })?;
    let mut bots: Vec<RandomAgent> = (0..players)
        .map(|p| RandomAgent::new(crate::sim::agent_seed(seed, p)))
        .collect();
    sayln!(
        "{}: {} players, seed {}. You are {}; the others are random bots.",
        rules.name,
        players,
        seed,
        names[me]
    );
    sayln!(
        "{}; {}",
        super::applied::describe(&rules),
        super::applied::loaded_from(&crate::model::find_ruleset(&args.ruleset))
    );
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut last_view: Option<Vec<String>> = None;
    let mut last_picture: Option<Picture> = None;
    while !game.is_over() {
        if game.decisions_taken() >= max_decisions {
            esayln!(
                "error: the game (seed {seed}) has not ended after {max_decisions} decisions: \
                 stopped as unfinished (does the rules' main loop end?)"
            );
            save_log(&mut game, log)?;
            return Err(Failed);
        }
        let legal = game.legal().map_err(|e| fail(&game, &e))?;
        let seat = game.to_move().unwrap_or(0).min(players - 1);
        let index = if seat == me {
            sayln!();
            let view = game.view(Some(me));
            match game
                .picture(Some(me))
                .map_err(|e| fail(&game, &ApplyError::Runtime(e)))?
            {
                Some(pic) => {
                    print_picture(&pic, last_picture.as_ref(), style);
                    last_picture = Some(pic);
                }
                None => print_view(&view, last_view.as_deref()),
            }
            last_view = Some(view);
            sayln!(
                "{}, {}:",
                names[me],
                game.prompt().unwrap_or("your decision")
            );
            for (i, d) in legal.iter().enumerate() {
                sayln!("  {:>3}) {}", i + 1, d.name);
            }
            let options: Vec<&str> = legal.iter().map(|d| &*d.name).collect();
            let Some(n) = ask(&mut input, &options, last_view.as_deref())? else {
                sayln!();
                sayln!(
                    "input ended: game abandoned after {} decisions",
                    game.decisions_taken()
                );
                return save_log(&mut game, log);
            };
            sayln!("{} (you) chose {}", names[me], legal[n].name);
            n
        } else {
            let i = bots[seat].choose(&mut game, &legal).min(legal.len() - 1);
            sayln!(
                "{} ({}) chose {}",
                names[seat],
                bots[seat].name(),
                legal[i].name
            );
            i
        };
        game.apply(index).map_err(|e| fail(&game, &e))?;
    }
    print_end(&mut game, &names, me)?;
    save_log(&mut game, log)
}

/// Draws the picture, with what changed since `last` marked and listed.
fn print_picture(pic: &Picture, last: Option<&Picture>, style: Style) {
    let (cells, lines) = last.map(|l| draw::changes(l, pic)).unwrap_or_default();
    for l in draw::picture(pic, style, &cells) {
        sayln!("{l}");
    }
    if last.is_some() {
        sayln!();
        if lines.is_empty() {
            sayln!("nothing visible changed since your last decision");
        } else {
            sayln!("changes since your last decision (marked on the board):");
            for l in lines.iter().take(CHANGES_SHOWN) {
                sayln!("  {l}");
            }
            if lines.len() > CHANGES_SHOWN {
                sayln!("  ... and {} more", lines.len() - CHANGES_SHOWN);
            }
        }
    }
}

/// How many changes are listed under the board.
const CHANGES_SHOWN: usize = 24;

/// Reads the human's choice among the options `names` (its index), asking
/// again until it is one: a number, a name or an unambiguous prefix of one
/// (see [`pick`]); `v` shows the whole `view`. `None` when the input ends.
fn ask(
    input: &mut impl BufRead,
    names: &[&str],
    view: Option<&[String]>,
) -> Result<Option<usize>, Failed> {
    let options = names.len();
    let mut line = String::new();
    loop {
        say!("choose 1-{options} or type a name> ");
        let _ = std::io::stdout().flush();
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) => return Ok(None),
            Ok(_) => {}
            Err(e) => {
                eprint_error(format!("cannot read input: {e}"));
                return Err(Failed);
            }
        }
        let text = line.trim();
        if text == "v" || text == "view" {
            for l in view.into_iter().flatten() {
                sayln!("  {l}");
            }
            continue;
        }
        match pick(text, names) {
            Ok(i) => return Ok(Some(i)),
            Err(e) => {
                sayln!("{e} (a number from 1 to {options}, a name, or `v` for the whole state)")
            }
        }
    }
}

/// The end of the game: the whole state, the scores and who won.
fn print_end(game: &mut Game, names: &[String], me: usize) -> CmdResult {
    let outcome = game.outcome().map_err(|e| fail(game, &e))?;
    sayln!();
    sayln!("game over after {} decisions", game.decisions_taken());
    for l in game.view(None) {
        sayln!("  {l}");
    }
    let Some(o) = outcome else { return Ok(()) };
    for (p, s) in o.scores().iter().enumerate() {
        sayln!(
            "  {:<8} {s}{}",
            names[p],
            if o.winners.contains(&p) {
                "  (winner)"
            } else {
                ""
            }
        );
    }
    let w: Vec<&str> = o.winners.iter().map(|w| names[*w].as_str()).collect();
    if o.winners.contains(&me) {
        sayln!(
            "{}",
            if w.len() > 1 {
                format!("you share the win ({})", w.join(", "))
            } else {
                "you win".to_string()
            }
        );
    } else {
        sayln!("winner: {}", w.join(", "));
    }
    Ok(())
}
