//! `tabula replay LOG --html FILE`: one self-contained page (inline SVG,
//! style and script; nothing fetched from outside) with a frame per
//! decision — the board and panels as everyone sees them afterwards, the
//! options offered, the one taken and the scores — and a slider and
//! previous / next buttons to step through them.

use std::path::Path;
use std::sync::Arc;

use super::draw;
use super::svg::{self, esc};
use super::{eprint_error, CmdResult, Failed};
use crate::engine::{Game, GameLog};
use crate::ir::ruleset::Ruleset;

/// How many options a frame lists (the one taken is always listed).
const OPTIONS_SHOWN: usize = 60;

/// Each seat's score now (the first score key), game over or not.
pub fn scores_now(game: &Game) -> Vec<i64> {
    let rules = game.rules().clone();
    let mut st = game.state().clone();
    (0..game.players())
        .map(|p| {
            rules.score.first().map_or(0, |f| {
                crate::engine::vm::eval(
                    &rules,
                    &mut st,
                    *f,
                    vec![crate::engine::state::Value::I(p as i64)],
                )
                .map_or(0, |v| v.int())
            })
        })
        .collect()
}

/// The scores as a line of `seat score` pairs.
pub fn scores_html(names: &[String], scores: &[i64]) -> String {
    let parts: Vec<String> = scores
        .iter()
        .enumerate()
        .map(|(p, s)| format!("{} {s}", esc(&names[p])))
        .collect();
    format!("<p class=\"scores\">scores: {}</p>", parts.join(", "))
}

/// The options of a decision as a list, the one taken marked.
fn options_html(names: &[&str], taken: Option<&str>) -> String {
    let mut s = String::from("<ol class=\"options\">");
    for (i, n) in names.iter().enumerate() {
        let is_taken = Some(*n) == taken;
        if i >= OPTIONS_SHOWN && !is_taken {
            continue;
        }
        let class = if is_taken { " class=\"taken\"" } else { "" };
        s.push_str(&format!("<li value=\"{}\"{class}>{}</li>", i + 1, esc(n)));
    }
    s.push_str("</ol>");
    if names.len() > OPTIONS_SHOWN {
        s.push_str(&format!("<p>{} options in all</p>", names.len()));
    }
    s
}

/// Replays the log and writes the page to `out`.
pub fn write(rules: &Arc<Ruleset>, log: &GameLog, names: &[String], out: &Path) -> CmdResult {
    let fail = |e: String| {
        eprint_error(e);
        Failed
    };
    let mut game =
        Game::new(rules.clone(), log.players, log.seed).map_err(|e| fail(e.to_string()))?;
    let first = game.picture(None).map_err(|e| fail(game.report(&e)))?;
    let base = first.and_then(|p| p.grid);
    let mut frames = base.as_ref().map(svg::base_defs).unwrap_or_default();
    let mut last = None;
    for (i, d) in log.decisions.iter().enumerate() {
        let legal = game.legal().map_err(|e| fail(e.to_string()))?;
        let options: Vec<&str> = legal.iter().map(|d| &*d.name).collect();
        let who = game
            .to_move()
            .and_then(|p| names.get(p).cloned())
            .unwrap_or_default();
        let head = format!(
            "<h2>decision {} of {}: {} — {}</h2>",
            i + 1,
            log.decisions.len(),
            esc(&who),
            esc(game.prompt().unwrap_or("decision"))
        );
        let body = frame_body(&game, names, &mut last, base.as_ref())?;
        frames.push_str(&format!(
            "<section class=\"frame\" data-decision=\"{}\" hidden>{head}<p>chose <b class=\"chosen\">{}</b></p>{}{body}</section>\n",
            i + 1,
            esc(d),
            options_html(&options, Some(d)),
        ));
        game.apply_named(d).map_err(|e| fail(e.to_string()))?;
    }
    let end = if game.is_over() {
        "game over"
    } else {
        "the log ends here"
    };
    let body = frame_body(&game, names, &mut last, base.as_ref())?;
    frames.push_str(&format!(
        "<section class=\"frame\" data-end=\"1\" hidden><h2>{end} after {} decisions</h2>{body}</section>\n",
        log.decisions.len()
    ));
    let page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{} — replay</title><style>{}</style></head><body>\
         <h1>{} — {} players, seed {}</h1>\
         <div id=\"controls\"><button id=\"prev\">&larr; previous</button> <button id=\"next\">next &rarr;</button> \
         <input id=\"slider\" type=\"range\" min=\"0\" max=\"{}\" value=\"0\"> <span id=\"pos\"></span></div>\n{frames}<script>{}</script></body></html>\n",
        esc(&rules.name),
        svg::STYLE,
        esc(&rules.name),
        log.players,
        log.seed,
        log.decisions.len(),
        REPLAY_SCRIPT
    );
    std::fs::write(out, page)
        .map_err(|e| fail(format!("cannot write `{}`: {e}", out.display())))?;
    sayln!("replay page written to {}", out.display());
    Ok(())
}

/// The picture (as everyone sees it), what changed since the previous
/// frame, and the scores.
fn frame_body(
    game: &Game,
    names: &[String],
    last: &mut Option<crate::engine::picture::Picture>,
    base: Option<&crate::engine::picture::GridPicture>,
) -> Result<String, Failed> {
    let pic = game.picture(None).map_err(|e| {
        esay!("{}", game.report(&e));
        Failed
    })?;
    let mut s = scores_html(names, &scores_now(game));
    match pic {
        Some(p) => {
            let (cells, _) = last
                .as_ref()
                .map(|l| draw::changes(l, &p))
                .unwrap_or_default();
            s.push_str(&svg::picture(&p, &cells, base));
            *last = Some(p);
        }
        None => {
            let lines: Vec<String> = game.view(None).iter().map(|l| esc(l)).collect();
            s.push_str(&format!("<pre>{}</pre>", lines.join("\n")));
        }
    }
    Ok(s)
}

/// Steps through the frames: slider, buttons, arrow keys.
const REPLAY_SCRIPT: &str = "const frames=[...document.querySelectorAll('section.frame')];\
const slider=document.getElementById('slider');let cur=0;\
function show(i){cur=Math.max(0,Math.min(frames.length-1,i));frames.forEach((f,j)=>f.hidden=j!==cur);\
slider.value=cur;document.getElementById('pos').textContent=(cur+1)+' / '+frames.length;}\
document.getElementById('prev').onclick=()=>show(cur-1);document.getElementById('next').onclick=()=>show(cur+1);\
slider.oninput=()=>show(+slider.value);\
document.addEventListener('keydown',e=>{if(e.key==='ArrowLeft')show(cur-1);if(e.key==='ArrowRight')show(cur+1);});\
show(+(location.hash.slice(1))||0);";
