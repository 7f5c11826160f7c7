//! The pages in a real browser: headless Chromium, driven through the
//! DevTools protocol over a pipe (no extra crate), plays decisions of
//! Tigris & Euphrates on `tabula serve` by clicking options and cells and
//! checks the page against the engine; steps through a `replay --html`
//! page. Skipped, saying so, only when no Chromium can be found (`.ci/run`
//! installs it when missing).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tabula::engine::{Game, GameLog};

/// Every wait of these tests ends after this long.
const TIMEOUT: Duration = Duration::from_secs(30);

fn chromium() -> Option<PathBuf> {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        let out = Command::new("sh")
            .args(["-c", &format!("command -v {name}")])
            .output()
            .ok()?;
        let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if out.status.success() && !path.is_empty() {
            return Some(PathBuf::from(path));
        }
    }
    None
}

/// A headless browser and one attached page.
struct Browser {
    child: Child,
    input: ChildStdin,
    messages: Receiver<Value>,
    next_id: u64,
    session: String,
    _profile: TempDir,
}

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(name: &str) -> TempDir {
    static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!("tabula-browser-{}-{name}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    TempDir(d)
}

impl Browser {
    /// Starts the browser (its DevTools pipe on fds 3 and 4, given by the
    /// shell from our pipes) and opens `url` in a page.
    fn open(exe: &Path, url: &str) -> Browser {
        let profile = temp_dir("profile");
        let script = format!(
            "exec '{}' --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
             --no-first-run --remote-debugging-pipe --user-data-dir='{}' \
             --window-size=1400,1000 about:blank 3<&0 4>&1 0</dev/null 1>/dev/null 2>/dev/null",
            exe.display(),
            profile.0.display()
        );
        let mut child = Command::new("sh")
            .args(["-c", &script])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the browser starts");
        let input = child.stdin.take().unwrap();
        let mut output = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let mut chunk = [0u8; 65536];
            while let Ok(n) = output.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                buf.extend_from_slice(&chunk[..n]);
                while let Some(end) = buf.iter().position(|b| *b == 0) {
                    let msg: Vec<u8> = buf.drain(..=end).collect();
                    if let Ok(v) = serde_json::from_slice::<Value>(&msg[..msg.len() - 1]) {
                        if tx.send(v).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let mut b = Browser {
            child,
            input,
            messages: rx,
            next_id: 0,
            session: String::new(),
            _profile: profile,
        };
        let target = b.call(None, "Target.createTarget", json!({"url": url}));
        let target_id = target["targetId"].as_str().unwrap().to_string();
        let attached = b.call(
            None,
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
        );
        b.session = attached["sessionId"].as_str().unwrap().to_string();
        b
    }

    /// Sends a command and waits for its answer.
    fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&msg).unwrap();
        bytes.push(0);
        self.input.write_all(&bytes).unwrap();
        self.input.flush().unwrap();
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let m = self
                .messages
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no answer to {method} within {TIMEOUT:?}"));
            if m["id"] == json!(id) {
                assert!(m.get("error").is_none(), "{method}: {m}");
                return m["result"].clone();
            }
        }
    }

    /// Evaluates JavaScript in the page (promises awaited); its value.
    fn eval(&mut self, js: &str) -> Value {
        let s = self.session.clone();
        let r = self.call(
            Some(&s),
            "Runtime.evaluate",
            json!({"expression": js, "awaitPromise": true, "returnByValue": true}),
        );
        assert!(r.get("exceptionDetails").is_none(), "{js}: {r}");
        r["result"]["value"].clone()
    }

    /// Waits until `js` is true (an exception, while the page loads, is
    /// false).
    fn wait_for(&mut self, js: &str) {
        let deadline = Instant::now() + TIMEOUT;
        let guarded = format!("(()=>{{try{{return ({js})===true;}}catch(e){{return false;}}}})()");
        while self.eval(&guarded) != json!(true) {
            assert!(Instant::now() < deadline, "timed out waiting for {js}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Clicks the middle of the element `selector` with the mouse.
    fn click(&mut self, selector: &str) {
        let js = format!(
            "(()=>{{const e=document.querySelector({sel});if(!e)return null;e.scrollIntoView({{block:'center'}});\
             const r=e.getBoundingClientRect();return [r.x+r.width/2,r.y+r.height/2];}})()",
            sel = serde_json::to_string(selector).unwrap()
        );
        let at = self.eval(&js);
        let (x, y) = (
            at[0]
                .as_f64()
                .unwrap_or_else(|| panic!("no element {selector}")),
            at[1].as_f64().unwrap(),
        );
        let s = self.session.clone();
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                Some(&s),
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `tabula serve` on a free loopback port; killed when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(game: &str, seed: u64) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args([
            "serve",
            game,
            "--players",
            "2",
            "--seat",
            "0",
            "--port",
            "0",
        ])
        .args(["--seed", &seed.to_string()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("tabula serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    Server { child, url }
}

/// A GET on the server, its body.
fn get(url: &str, path: &str) -> String {
    let host = url.trim_start_matches("http://");
    let mut s = TcpStream::connect(host).unwrap();
    s.set_read_timeout(Some(TIMEOUT)).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    text.split_once("\r\n\r\n").unwrap().1.to_string()
}

fn rules(game: &str) -> Arc<tabula::model::Ruleset> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rules")
        .join(game);
    let mut r = tabula::model::load_for_players(&dir, &[], 2).unwrap();
    tabula::model::attach_view(&dir, &mut r).unwrap();
    Arc::new(r)
}

macro_rules! browser_or_skip {
    () => {
        match chromium() {
            Some(c) => c,
            None => {
                eprintln!(
                    "SKIPPED: no chromium, chromium-browser or google-chrome on PATH \
                     (`apt-get install -y chromium`; .ci/run installs it)"
                );
                return;
            }
        }
    };
}

/// The decisions the page has seen.
fn decisions(b: &mut Browser) -> u64 {
    b.eval("+document.body.dataset.decisions").as_u64().unwrap()
}

#[test]
fn playing_by_clicking_in_the_browser_matches_the_engine() {
    let exe = browser_or_skip!();
    let server = serve("tigris-euphrates", 0);
    let mut b = Browser::open(&exe, &format!("{}/", server.url));
    b.wait_for("document.body.dataset.decisions !== undefined");
    // Seed 0: the bot (bull) has played its two actions; archer acts.
    let start = decisions(&mut b);
    assert_eq!(start, 6);
    assert_eq!(
        b.eval("document.getElementById('status').textContent"),
        json!("archer, action:")
    );

    // A tile: the option clicked, then the colour.
    b.click("#options li[data-option='tile']");
    b.wait_for(&format!(
        "+document.body.dataset.decisions === {}",
        start + 1
    ));
    b.click("#options li[data-option='red']");
    b.wait_for(&format!(
        "+document.body.dataset.decisions === {}",
        start + 2
    ));
    // A river square is refused for a red tile: the reason is shown.
    b.click("#board .cell[data-cell='sq_4_0']");
    b.wait_for("document.getElementById('error').textContent.includes('only farms go on a river')");
    assert_eq!(decisions(&mut b), start + 2);
    // A land square is taken by clicking it.
    b.click("#board .cell[data-cell='sq_0_0']");
    b.wait_for(&format!(
        "+document.body.dataset.decisions === {}",
        start + 3
    ));
    b.wait_for(
        "document.querySelector(\"#board .cell[data-cell='sq_0_0']\").dataset.piece === 'tile'",
    );

    // The second action: a blue tile on a river square.
    b.click("#options li[data-option='tile']");
    b.wait_for(&format!(
        "+document.body.dataset.decisions === {}",
        start + 4
    ));
    b.click("#options li[data-option='blue']");
    b.wait_for(&format!(
        "+document.body.dataset.decisions === {}",
        start + 5
    ));
    b.click("#board .cell[data-cell='sq_4_0']");
    // The bot plays its turn; the page waits for archer again.
    b.wait_for(&format!("+document.body.dataset.decisions > {}", start + 5));

    // The page against the engine: replay the server's log, draw archer's
    // picture, compare every cell.
    let log: GameLog = serde_json::from_str(&get(&server.url, "/log")).unwrap();
    assert_eq!(
        &log.decisions[6..11],
        ["tile", "red", "sq_0_0", "tile", "blue"]
    );
    assert_eq!(log.decisions[11], "sq_4_0");
    assert_eq!(decisions(&mut b), log.decisions.len() as u64);
    let mut g = Game::new(rules("tigris-euphrates"), 2, 0).unwrap();
    for d in &log.decisions {
        g.apply_named(d).unwrap();
    }
    let pic = g.picture(Some(0)).unwrap().unwrap();
    let page = b.eval(
        "JSON.stringify([...document.querySelectorAll('#board .cell')].map(c=>[c.dataset.cell,c.dataset.piece,c.dataset.colour]))",
    );
    let cells: Vec<(String, String, String)> =
        serde_json::from_str(page.as_str().unwrap()).unwrap();
    let grid = pic.grid.unwrap();
    assert_eq!(cells.len(), grid.cells.len());
    for (c, (name, piece, colour)) in grid.cells.iter().zip(&cells) {
        assert_eq!(&c.name, name);
        assert_eq!(c.piece.as_deref().unwrap_or(""), piece, "{name}");
        assert_eq!(c.colour_name.as_deref().unwrap_or(""), colour, "{name}");
    }
    let sq00 = cells.iter().find(|c| c.0 == "sq_0_0").unwrap();
    assert_eq!((sq00.1.as_str(), sq00.2.as_str()), ("tile", "red"));
    // Bull's hand is not on archer's page.
    let hidden = b.eval("[...document.querySelectorAll('td.hidden')].length");
    assert!(hidden.as_u64().unwrap() >= 6, "{hidden}");
}

#[test]
fn stepping_through_a_replay_page() {
    let exe = browser_or_skip!();
    let dir = temp_dir("replay");
    let mut g = Game::new(rules("tigris-euphrates"), 2, 4).unwrap();
    let mut bot = tabula::RandomAgent::new(4);
    use tabula::Agent;
    for _ in 0..30 {
        let legal = g.legal().unwrap();
        let i = bot.choose(&mut g, &legal);
        g.apply(i).unwrap();
    }
    let log = GameLog::of(&mut g);
    let log_path = dir.0.join("log.json");
    std::fs::write(&log_path, serde_json::to_string(&log).unwrap()).unwrap();
    let html = dir.0.join("replay.html");
    let out = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .arg("replay")
        .arg(&log_path)
        .arg("--html")
        .arg(&html)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut b = Browser::open(&exe, &format!("file://{}", html.display()));
    b.wait_for(
        "document.getElementById('pos') && document.getElementById('pos').textContent !== ''",
    );
    let shown = |b: &mut Browser| {
        b.eval("(()=>{const f=[...document.querySelectorAll('section.frame')].filter(f=>!f.hidden);return f.length===1?(f[0].dataset.decision||'end'):'none';})()")
    };
    assert_eq!(
        b.eval("document.querySelectorAll('section.frame').length"),
        json!(31)
    );
    assert_eq!(shown(&mut b), json!("1"));
    b.click("#next");
    b.click("#next");
    assert_eq!(shown(&mut b), json!("3"));
    let chosen = b.eval("[...document.querySelectorAll('section.frame')].find(f=>!f.hidden).querySelector('.chosen').textContent");
    assert_eq!(chosen, json!(log.decisions[2]));
    b.click("#prev");
    assert_eq!(shown(&mut b), json!("2"));
    b.eval("(()=>{const s=document.getElementById('slider');s.value=30;s.dispatchEvent(new Event('input'));return true;})()");
    assert_eq!(shown(&mut b), json!("end"));
    assert_eq!(
        b.eval("document.getElementById('pos').textContent"),
        json!("31 / 31")
    );
}
