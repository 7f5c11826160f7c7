//! Views (`view.yaml`): the pictures computed from known states show the
//! expected pieces in known cells, hide what a seat may not see, draw in
//! plain text at the terminal, take options by name, and make a
//! self-contained replay page with one frame per decision.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

use tabula::cli::draw::{self, Style};
use tabula::engine::picture::{CellPicture, Picture};
use tabula::engine::{Game, GameLog};
use tabula::model::Ruleset;

fn dir(game: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rules")
        .join(game)
}

/// The ruleset for two players (with the variants two players need).
fn rules(game: &str) -> Arc<Ruleset> {
    let mut r =
        tabula::model::load_for_players(&dir(game), &[], 2).unwrap_or_else(|e| panic!("{e:?}"));
    tabula::model::attach_view(&dir(game), &mut r).unwrap_or_else(|e| panic!("{e:?}"));
    Arc::new(r)
}

/// A scratch copy of the nim ruleset's files (a view or rules are added
/// to it), in a directory named after `tag`.
fn nim_copy(tag: &str) -> PathBuf {
    let tmp = std::env::temp_dir().join(format!("tabula-views-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    let nim = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rulesets/nim");
    for f in std::fs::read_dir(&nim).unwrap() {
        let f = f.unwrap().path();
        if f.is_file() {
            std::fs::copy(&f, tmp.join(f.file_name().unwrap())).unwrap();
        }
    }
    tmp
}

#[test]
fn a_mistake_in_a_view_is_reported_at_its_place() {
    let tmp = nim_copy("bad");
    std::fs::write(
        tmp.join("view.yaml"),
        "panels:\n  - title: T\n    columns:\n      a: \"no_such_name\"\n      b: \"1 +\"\n  - title: U\n    rows: {p: nokind}\n    columns: {x: \"1\"}\n",
    )
    .unwrap();
    let mut r = tabula::model::load(&tmp, &[]).expect("the rules themselves load");
    let d = tabula::model::attach_view(&tmp, &mut r).expect_err("the view has mistakes");
    let codes: Vec<String> = d.items.iter().map(|i| i.code.to_string()).collect();
    assert!(
        codes.contains(&"tabula::unknown_name".to_string()),
        "{codes:?}"
    );
    assert!(
        codes.contains(&"tabula::syntax_error".to_string()),
        "{codes:?}"
    );
    assert!(
        codes.contains(&"tabula::unknown_kind".to_string()),
        "{codes:?}"
    );
    let unknown = d
        .items
        .iter()
        .find(|i| i.code.to_string() == "tabula::unknown_name")
        .unwrap();
    assert_eq!(d.sources.slice(unknown.span), "no_such_name");
    let _ = std::fs::remove_dir_all(&tmp);
}

fn picture(g: &Game, seat: Option<usize>) -> Picture {
    g.picture(seat).expect("no rules error").expect("a view")
}

fn cell<'a>(p: &'a Picture, name: &str) -> &'a CellPicture {
    let grid = p.grid.as_ref().expect("a board");
    grid.cells
        .iter()
        .find(|c| c.name == name)
        .expect("the cell is drawn")
}

fn apply(g: &mut Game, names: &[&str]) {
    for n in names {
        g.apply_named(n).unwrap_or_else(|e| panic!("{n}: {e}"));
    }
}

#[test]
fn every_shipped_game_declares_a_view_that_draws() {
    for game in ["tzolkin", "tigris-euphrates", "mexica", "cuzco"] {
        let r = rules(game);
        let g = Game::new(r, 2, 1).unwrap();
        let p = picture(&g, Some(0));
        assert!(!p.panels.is_empty(), "{game}: panels");
        let lines = draw::picture(&p, Style { colour: false }, &[]);
        assert!(lines.len() > 5, "{game}: drawn");
    }
}

#[test]
fn a_tile_laid_shows_on_its_square_with_its_colour() {
    // Seed 0, two players: bull acts first (as `tabula play` shows).
    let mut g = Game::new(rules("tigris-euphrates"), 2, 0).unwrap();
    let before = picture(&g, None);
    assert_eq!(cell(&before, "sq_6_0").piece, None);
    assert_eq!(cell(&before, "sq_6_0").terrain.as_deref(), Some("river"));
    assert_eq!(cell(&before, "sq_9_0").terrain.as_deref(), Some("land"));
    assert_eq!(cell(&before, "sq_4_0").terrain.as_deref(), Some("river"));
    // A starting temple with its treasure.
    assert_eq!(cell(&before, "sq_10_0").glyph.as_deref(), Some("$"));
    assert_eq!(cell(&before, "sq_10_0").colour_name.as_deref(), Some("red"));
    apply(&mut g, &["tile", "blue", "sq_6_0"]);
    let after = picture(&g, None);
    let c = cell(&after, "sq_6_0");
    assert_eq!(c.piece.as_deref(), Some("tile"));
    assert_eq!(c.glyph.as_deref(), Some("#"));
    assert_eq!(c.colour_name.as_deref(), Some("blue"));
    let (cells, lines) = draw::changes(&before, &after);
    assert_eq!(cells, vec!["sq_6_0".to_string()]);
    assert!(
        lines.iter().any(|l| l == "sq_6_0: empty -> tile blue"),
        "{lines:?}"
    );
}

/// A view reading a hidden set only through instructions the compiler
/// fused (`secret + open` is one instruction reading both variables) is
/// hidden from every seat, as when it is read plainly.
#[test]
fn a_secret_read_through_a_fused_instruction_is_still_hidden() {
    let tmp = nim_copy("fused");
    std::fs::write(
        tmp.join("secret.rules"),
        "hidden var secret: set<colour>;\nvar open: set<colour>;\n",
    )
    .unwrap();
    std::fs::write(
        tmp.join("view.yaml"),
        "panels:\n  - title: T\n    columns:\n      both: \"count(secret + open)\"\n      \
         open: \"count(open + open)\"\n",
    )
    .unwrap();
    let mut r = tabula::model::load(&tmp, &[]).expect("loads");
    tabula::model::attach_view(&tmp, &mut r).expect("the view loads");
    let g = Game::new(Arc::new(r), 2, 0).unwrap();
    let panel = picture(&g, Some(0)).panels[0].clone();
    assert_eq!(panel.columns, ["both", "open"]);
    let hidden: Vec<bool> = panel.rows[0].values.iter().map(|v| v.hidden).collect();
    assert_eq!(hidden, [true, false]);
    let plain = picture(&g, None).panels[0].rows[0].values.clone();
    assert!(
        plain.iter().all(|v| !v.hidden && v.text == "0"),
        "{plain:?}"
    );
    std::fs::remove_dir_all(&tmp).ok();
}

#[test]
fn hands_and_points_behind_the_screens_are_hidden_from_the_other_seat() {
    let g = Game::new(rules("tigris-euphrates"), 2, 3).unwrap();
    let referee = picture(&g, None);
    let dynasties = |p: &Picture| {
        p.panels
            .iter()
            .find(|p| p.title == "Dynasties")
            .unwrap()
            .clone()
    };
    let hand_col = dynasties(&referee)
        .columns
        .iter()
        .position(|c| c == "hand")
        .unwrap();
    let bull_hand = dynasties(&referee).rows[1].values[hand_col].text.clone();
    assert!(!bull_hand.is_empty() && bull_hand != "?");
    let mine = picture(&g, Some(0));
    let d = dynasties(&mine);
    // Archer sees its own row, not bull's points, treasures or hand.
    assert!(d.rows[0].values.iter().all(|v| !v.hidden));
    for (col, v) in d.columns.iter().zip(&d.rows[1].values) {
        let public = col == "catastrophes";
        assert_eq!(v.hidden, !public, "{col}");
    }
    // No tile of bull's hand is anywhere in archer's picture.
    let json = serde_json::to_string(&mine).unwrap();
    let words: std::collections::HashSet<&str> = json
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .collect();
    for tile in bull_hand.split(' ') {
        assert!(!words.contains(tile), "{tile} leaks");
    }
    // Bull sees its own hand.
    let theirs = picture(&g, Some(1));
    assert_eq!(dynasties(&theirs).rows[1].values[hand_col].text, bull_hand);
}

#[test]
fn the_wealth_kept_is_private_in_the_other_game_with_secrets() {
    let mut g = Game::new(rules("tzolkin"), 2, 0).unwrap();
    let first = g.legal().unwrap()[0].name.to_string();
    let seat = g.to_move().unwrap();
    g.apply_named(&first).unwrap();
    let players = |p: &Picture| {
        p.panels
            .iter()
            .find(|p| p.title == "Players")
            .unwrap()
            .clone()
    };
    let kept = players(&picture(&g, None))
        .columns
        .iter()
        .position(|c| c == "kept")
        .unwrap();
    let own = players(&picture(&g, Some(seat)));
    assert_eq!(own.rows[seat].values[kept].text, first);
    let other = players(&picture(&g, Some(1 - seat)));
    assert_eq!(other.rows[seat].values[kept].text, "?");
    assert!(other.rows[seat].values[kept].hidden);
}

#[test]
fn a_hex_board_leaves_out_the_ring_and_the_pillis_stand_where_they_started() {
    let g = Game::new(rules("cuzco"), 2, 0).unwrap();
    let p = picture(&g, None);
    let grid = p.grid.as_ref().unwrap();
    assert_eq!(grid.shape, "hex");
    assert_eq!(
        grid.cells.len(),
        150,
        "the 150 hexes of the region, not the ring"
    );
    let lines = draw::grid(grid, Style { colour: false }, &[]);
    // Cells are 4 characters wide, odd rows shifted half a cell right.
    for c in &grid.cells {
        let at = 4 + 4 * c.x + if c.y % 2 == 1 { 2 } else { 0 };
        let shown = lines[1 + c.y].chars().nth(at);
        let want = c.glyph.as_deref().unwrap_or(&c.ground_glyph).chars().next();
        assert_eq!(shown, want, "{}", c.name);
    }

    let mut m = Game::new(rules("mexica"), 2, 0).unwrap();
    apply(&mut m, &["sq_8_7"]);
    let p = picture(&m, None);
    let c = cell(&p, "sq_8_7");
    assert_eq!(c.glyph.as_deref(), Some("@"));
    assert_eq!(c.label.as_deref(), Some("black"));
}

#[test]
fn the_plain_terminal_drawing_of_the_first_position() {
    let g = Game::new(rules("tigris-euphrates"), 2, 0).unwrap();
    let p = picture(&g, Some(0));
    let lines = draw::picture(&p, Style { colour: false }, &[]);
    // Row 0: land, then the river from column 4, a temple with its treasure at 10.
    assert!(lines[1].starts_with("  0 .  .  .  .  ~  ~"), "{}", lines[1]);
    assert_eq!(&lines[1][4 + 3 * 10..4 + 3 * 10 + 2], "$r");
    assert!(lines.iter().all(|l| !l.contains('\x1b')), "no colour codes");
    insta::assert_snapshot!(lines.join("\n"));
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
}

#[test]
fn play_takes_an_option_by_name_or_unique_prefix() {
    let mut child = bin()
        .args([
            "play",
            "tigris-euphrates",
            "-p",
            "2",
            "--seed",
            "0",
            "--max-decisions",
            "40",
        ])
        .arg("--no-color")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    // `c` is ambiguous? no: catastrophe only; `xyz` matches nothing; `t`
    // is tile; then a colour by prefix, then a square by name.
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"xyz\nt\nre\nsq_0_0\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let s = String::from_utf8_lossy(&out.stdout);
    assert!(s.contains("no option is named `xyz` or starts so"), "{s}");
    assert!(s.contains("archer (you) chose tile"), "{s}");
    assert!(s.contains("archer (you) chose red"), "{s}");
    assert!(s.contains("archer (you) chose sq_0_0"), "{s}");
    assert!(s.contains("changes since your last decision"), "{s}");
    assert!(!s.contains('\x1b'), "plain text when not a terminal");
}

#[test]
fn the_replay_page_is_self_contained_with_one_frame_per_decision() {
    let r = rules("mexica");
    let mut g = Game::new(r, 2, 5).unwrap();
    let mut bot = tabula::RandomAgent::new(5);
    use tabula::Agent;
    for _ in 0..40 {
        let legal = g.legal().unwrap();
        let i = bot.choose(&mut g, &legal);
        g.apply(i).unwrap();
    }
    let log = GameLog::of(&mut g);
    let tmp = std::env::temp_dir().join(format!("tabula-views-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let log_path = tmp.join("log.json");
    std::fs::write(&log_path, serde_json::to_string(&log).unwrap()).unwrap();
    let html = tmp.join("replay.html");
    let out = bin()
        .args(["replay"])
        .arg(&log_path)
        .arg("--html")
        .arg(&html)
        .arg("--unverified")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(
        page.matches("<section class=\"frame\" data-decision=")
            .count(),
        40
    );
    for (i, d) in log.decisions.iter().enumerate() {
        let head = format!("data-decision=\"{}\"", i + 1);
        let at = page.find(&head).unwrap();
        let frame = &page[at..at + page[at..].find("</section>").unwrap()];
        assert!(
            frame.contains(&format!("chose <b class=\"chosen\">{d}</b>")),
            "frame {}",
            i + 1
        );
        assert!(
            frame.contains(&format!("class=\"taken\">{d}</li>")),
            "frame {}",
            i + 1
        );
    }
    // Nothing is fetched from outside: no external script, style, image or font.
    for bad in [
        "<script src",
        "<link",
        "@import",
        "url(",
        "src=\"http",
        "href=\"http",
    ] {
        assert!(!page.contains(bad), "{bad}");
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
