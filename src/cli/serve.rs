//! `tabula serve RULESET`: a page on the loopback interface to play against
//! random bots in the browser, with the board and panels of the ruleset's
//! view. Click an option or a cell (the option named by the cell) to
//! decide; a refused option is shown with its reason. One game, one
//! thread, nothing fetched from outside the page.
//!
//! Routes: `GET /` the page, `GET /state` the position as JSON,
//! `POST /choose` (the body: an option's name or number) and `GET /log`
//! the game log so far.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};

use serde_json::json;

use super::draw;
use super::pick::pick;
use super::replay_html::scores_now;
use super::svg;
use super::{eprint_error, load_for_players, seat_names, CmdResult, Failed, RulesetArgs};
use crate::agents::{Agent, RandomAgent};
use crate::engine::picture::Picture;
use crate::engine::{Game, GameLog};

/// The largest request body read (an option's name).
const MAX_BODY: usize = 64 << 10;

struct Table {
    game: Game,
    bots: Vec<RandomAgent>,
    me: usize,
    names: Vec<String>,
    /// The picture at the human's previous decision.
    last: Option<Picture>,
    /// The picture the page shows now, and what changed since `last`.
    shown: Option<(Picture, Vec<String>)>,
    /// Who chose what, most recent last.
    events: Vec<String>,
    max_decisions: usize,
}

impl Table {
    /// Lets the bots play until the human's turn or the end.
    fn bots_play(&mut self) -> Result<(), String> {
        while !self.game.is_over() && self.game.decisions_taken() < self.max_decisions {
            let seat = self.game.to_move().unwrap_or(0);
            if seat == self.me {
                break;
            }
            let legal = self.game.legal().map_err(|e| e.to_string())?;
            let last = self.bots.len() - 1;
            let bot = &mut self.bots[seat.min(last)];
            let i = bot.choose(&mut self.game, &legal).min(legal.len() - 1);
            self.events
                .push(format!("{} chose {}", self.names[seat], legal[i].name));
            self.game.apply(i).map_err(|e| e.to_string())?;
        }
        let pic = self
            .game
            .picture(Some(self.me))
            .map_err(|e| e.message.clone())?;
        self.shown = pic.map(|p| {
            let cells = self
                .last
                .as_ref()
                .map(|l| draw::changes(l, &p).0)
                .unwrap_or_default();
            (p, cells)
        });
        Ok(())
    }

    /// The human's choice: `typed` is a name, a prefix or a number.
    fn choose(&mut self, typed: &str) -> Result<(), String> {
        if self.game.is_over() {
            return Err("the game is over".into());
        }
        let legal = self.game.legal().map_err(|e| e.to_string())?;
        let names: Vec<&str> = legal.iter().map(|d| &*d.name).collect();
        let i = match pick(typed, &names) {
            Ok(i) => i,
            Err(e) => {
                let refused = self.game.refused().map_err(|e| e.to_string())?;
                return Err(match refused.iter().find(|r| r.name == typed.trim()) {
                    Some(r) => format!("`{}` is refused: {}", r.name, r.reason),
                    None => e.to_string(),
                });
            }
        };
        self.events.push(format!(
            "{} (you) chose {}",
            self.names[self.me], legal[i].name
        ));
        self.last = self.shown.take().map(|(p, _)| p);
        self.game.apply(i).map_err(|e| e.to_string())?;
        self.bots_play()
    }

    /// The position as the page needs it.
    fn state(&mut self, error: Option<String>) -> serde_json::Value {
        let legal = self.game.legal().unwrap_or_default();
        let refused = self.game.refused().unwrap_or_default();
        let picture = match &self.shown {
            Some((p, cells)) => svg::picture(p, cells, None),
            None => format!(
                "<pre>{}</pre>",
                svg::esc(&self.game.view(Some(self.me)).join("\n"))
            ),
        };
        let over = self.game.is_over();
        let outcome = self.game.outcome().ok().flatten();
        json!({
            "picture": picture,
            "seats": self.names,
            "me": self.me,
            "to_move": self.game.to_move(),
            "prompt": self.game.prompt(),
            "options": legal.iter().map(|d| &*d.name).collect::<Vec<_>>(),
            "refused": refused.iter().map(|r| json!({"name": r.name, "reason": r.reason})).collect::<Vec<_>>(),
            "events": self.events.iter().rev().take(40).rev().collect::<Vec<_>>(),
            "decisions": self.game.decisions_taken(),
            "over": over,
            "winners": outcome.map(|o| o.winners),
            "scores": scores_now(&self.game),
            "error": error,
        })
    }
}

/// `tabula serve`: serves the game on 127.0.0.1:`port` (0: any free
/// port, printed) until interrupted.
pub(super) fn run(
    args: &RulesetArgs,
    players: usize,
    seat: usize,
    seed: u64,
    port: u16,
    max_decisions: usize,
) -> CmdResult {
    let (rules, players) = load_for_players(args, Some(players))?;
    let rules = super::with_view(rules, &crate::model::find_ruleset(&args.ruleset))?;
    let names = seat_names(&rules, players);
    if seat >= players {
        eprint_error(format!(
            "--seat {seat} is out of range: seats are 0 to {}",
            players - 1
        ));
        return Err(Failed);
    }
    let game = Game::new(rules.clone(), players, seed).map_err(|e| {
        eprint_error(e);
        Failed
    })?;
    let mut table = Table {
        game,
        bots: (0..players)
            .map(|p| RandomAgent::new(crate::sim::agent_seed(seed, p)))
            .collect(),
        me: seat,
        names,
        last: None,
        shown: None,
        events: Vec::new(),
        max_decisions,
    };
    if let Err(e) = table.bots_play() {
        eprint_error(e);
        return Err(Failed);
    }
    let listener = TcpListener::bind(("127.0.0.1", port)).map_err(|e| {
        eprint_error(format!("cannot listen on 127.0.0.1:{port}: {e}"));
        Failed
    })?;
    let addr = listener.local_addr().map_err(|e| {
        eprint_error(e);
        Failed
    })?;
    sayln!(
        "serving {} ({} players, you are {}) on http://{addr}/",
        rules.name,
        players,
        table.names[seat]
    );
    let _ = std::io::stdout().flush();
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        match handle(stream, &mut table, &rules.name) {
            // A browser that hung up (a page left or reloaded) is no failure.
            Err(e) if hung_up(&e) => {}
            Err(e) => esayln!("request failed: {e}"),
            Ok(()) => {}
        }
    }
    Ok(())
}

/// Whether an error only says that the browser closed the connection.
fn hung_up(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::{BrokenPipe, ConnectionAborted, ConnectionReset};
    matches!(e.kind(), BrokenPipe | ConnectionAborted | ConnectionReset)
}

/// Answers one request.
fn handle(stream: TcpStream, table: &mut Table, title: &str) -> std::io::Result<()> {
    stream.set_read_timeout(Some(std::time::Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let mut length = 0usize;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 || h.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(0).min(MAX_BODY);
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let body = String::from_utf8_lossy(&body).to_string();
    let (status, kind, text) = match (method, path) {
        ("GET", "/") => ("200 OK", "text/html; charset=utf-8", page(title)),
        ("GET", "/state") => ("200 OK", "application/json", table.state(None).to_string()),
        ("POST", "/choose") => {
            let error = table.choose(&body).err();
            ("200 OK", "application/json", table.state(error).to_string())
        }
        ("GET", "/log") => {
            let log = GameLog::of(&mut table.game);
            let text = serde_json::to_string(&log).unwrap_or_default();
            ("200 OK", "application/json", text)
        }
        _ => ("404 Not Found", "text/plain", "not found\n".to_string()),
    };
    let mut out = stream;
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        text.len()
    )?;
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// The page: inline style and script, nothing fetched but `/state`.
fn page(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{}\
         .layout{{display:flex;gap:16px;align-items:flex-start}}#side{{min-width:240px;max-width:320px}}#error{{color:#a00;font-weight:bold}}\
         #events{{font-size:12px;color:#555;max-height:220px;overflow:auto}}</style></head><body>\
         <h1>{}</h1><div class=\"layout\"><div id=\"side\">\
         <p id=\"status\"></p><p id=\"error\"></p><p id=\"scores\"></p><ol class=\"options\" id=\"options\"></ol>\
         <details><summary>refused options</summary><ul id=\"refused\" class=\"refused\"></ul></details>\
         <h3>what happened</h3><ul id=\"events\"></ul></div><div id=\"board\"></div></div><script>{}</script></body></html>\n",
        svg::esc(title),
        svg::STYLE,
        svg::esc(title),
        SERVE_SCRIPT
    )
}

/// The page's script: draws `/state`, posts the option clicked (or the
/// option a clicked cell names), shows refusals with their reasons.
const SERVE_SCRIPT: &str = r#"
let S=null;
const $=id=>document.getElementById(id);
function esc(t){const d=document.createElement('div');d.textContent=t;return d.innerHTML;}
function draw(s){S=s;document.body.dataset.decisions=s.decisions;document.body.dataset.over=s.over;
 $('board').innerHTML=s.picture;
 const me=s.seats[s.me];
 $('status').textContent=s.over?('game over: '+(s.winners||[]).map(w=>s.seats[w]).join(', ')+' won'):(me+', '+(s.prompt||'your decision')+':');
 $('error').textContent=s.error||'';
 $('scores').textContent='scores: '+s.scores.map((v,i)=>s.seats[i]+' '+v).join(', ');
 $('options').innerHTML=s.options.map((o,i)=>'<li data-option="'+esc(o)+'">'+esc(o)+'</li>').join('');
 $('refused').innerHTML=s.refused.map(r=>'<li data-option="'+esc(r.name)+'">'+esc(r.name)+': '+esc(r.reason)+'</li>').join('');
 $('events').innerHTML=s.events.map(e=>'<li>'+esc(e)+'</li>').join('');
 document.querySelectorAll('#options li').forEach(li=>li.onclick=()=>choose(li.dataset.option));
 document.querySelectorAll('#board .cell').forEach(g=>g.onclick=()=>cell(g.dataset.cell));
}
async function choose(o){const r=await fetch('/choose',{method:'POST',body:o});draw(await r.json());}
function cell(name){
 if(!S)return;
 const hits=S.options.filter(o=>o===name||o.split(' ').includes(name));
 if(hits.length===1){choose(hits[0]);return;}
 document.querySelectorAll('#options li').forEach(li=>li.classList.toggle('hit',hits.includes(li.dataset.option)));
 if(hits.length>1){$('error').textContent=name+': several options, pick one of the marked';return;}
 const ref=S.refused.filter(r=>r.name===name||r.name.split(' ').includes(name));
 $('error').textContent=ref.length?ref.map(r=>r.name+' is refused: '+r.reason).join('; '):(name+' is not an option now');
}
fetch('/state').then(r=>r.json()).then(draw);
"#;
