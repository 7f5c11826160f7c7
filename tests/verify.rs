//! The load-time proof of the bytecode (`ir::verify`) that lets the
//! interpreter push, pop and reach locals unchecked: every function of
//! every ruleset here is proven; unsound code is refused with the
//! instruction and the reason; and a state whose stack was tampered with
//! between runs is an internal error, never an unchecked access.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tabula::engine::state::Value;
use tabula::ir::bytecode::{BinaryOp, Op, VarShape};
use tabula::ir::verify::{self, UNREACHED};
use tabula::{ErrorKind, Game, Ruleset};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn load(dir: &str) -> Ruleset {
    tabula::load(&root().join(dir), &[]).unwrap_or_else(|e| panic!("{dir}: {e}"))
}

const RULESETS: &[&str] = &[
    "rules/tzolkin",
    "rules/tigris-euphrates",
    "rules/mexica",
    "rules/cuzco",
    "tests/rulesets/connect-four",
    "tests/rulesets/nim",
    "tests/rulesets/race",
    "tests/rulesets/regions",
    "tests/rulesets/snippets",
];

#[test]
fn every_function_loaded_is_proven() {
    for dir in RULESETS {
        let rules = load(dir);
        for f in rules.funcs() {
            assert_eq!(f.heights.len(), f.code.len(), "{dir}: {}", f.name);
            assert_eq!(f.heights[0] as usize, f.nlocals, "{dir}: {}", f.name);
            assert!(f
                .heights
                .iter()
                .all(|h| *h == UNREACHED || *h <= f.max_stack));
            assert_eq!(
                verify::check(&rules, f).expect("proven").max_stack,
                f.max_stack
            );
        }
    }
}

/// The main procedure of nim with its code replaced by `code`, checked.
fn check_code(code: Vec<Op>, nlocals: usize) -> Result<verify::Shape, (usize, String)> {
    let rules = load("tests/rulesets/nim");
    let mut f = rules.funcs()[rules.main as usize].clone();
    f.spans = vec![f.span; code.len()];
    f.code = code;
    f.nlocals = nlocals;
    f.arity = 0;
    f.returns = false;
    verify::check(&rules, &f)
}

#[test]
fn sound_code_is_proven_with_its_heights_fused_or_not() {
    // local0 = 0; while local0 < 3 { local0 = local0 + 1 }
    let code = vec![
        Op::Const(0),
        Op::Store(0),
        Op::Load(0),
        Op::Const(3),
        Op::Bin(BinaryOp::Lt),
        Op::JumpIfNot(11),
        Op::Load(0),
        Op::Const(1),
        Op::Bin(BinaryOp::Add),
        Op::Store(0),
        Op::Jump(2),
        Op::Ret,
    ];
    let shape = check_code(code.clone(), 1).expect("sound");
    assert_eq!(shape.heights, [1, 2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 1]);
    assert_eq!(shape.max_stack, 3);
    let mut fused = code.clone();
    let no_var = |_| VarShape {
        dims: 0,
        is_set: false,
    };
    tabula::ir::bytecode::fuse(&mut fused, &no_var);
    assert_ne!(fused, code);
    assert_eq!(check_code(fused, 1).expect("sound"), shape);
}

#[test]
fn unsound_code_is_refused_with_the_instruction() {
    let refused = |code: Vec<Op>, nlocals: usize, at: usize, why: &str| {
        let (pc, msg) = check_code(code.clone(), nlocals).expect_err("unsound");
        assert_eq!(pc, at, "{code:?}: {msg}");
        assert!(msg.contains(why), "{code:?}: {msg}");
    };
    // A pop below the locals.
    refused(vec![Op::Pop, Op::Ret], 1, 0, "pops below the locals");
    refused(
        vec![Op::Const(1), Op::Bin(BinaryOp::Add), Op::Ret],
        0,
        1,
        "pops below",
    );
    // A local past the frame's.
    refused(vec![Op::Load(2), Op::Pop, Op::Ret], 2, 0, "local 2 of 2");
    refused(vec![Op::Move(0, 5), Op::Store(5), Op::Ret], 1, 0, "local 5");
    // A jump out of the function, a fall past its end.
    refused(vec![Op::Jump(7), Op::Ret], 0, 0, "past the end");
    refused(vec![Op::Const(1)], 0, 0, "past the end");
    // Two paths meeting at different heights.
    refused(
        vec![Op::Const(1), Op::JumpIf(3), Op::Const(2), Op::Ret],
        0,
        2,
        "reaches 3 at height 1, elsewhere 0",
    );
    // A loop that grows the stack each time round.
    refused(
        vec![Op::Const(1), Op::Jump(0)],
        0,
        1,
        "reaches 0 at height 1",
    );
    // A call with the wrong number of arguments.
    refused(
        vec![Op::Const(1), Op::Call(0, 1), Op::Ret],
        0,
        1,
        "arguments for",
    );
    // A fused instruction's sequence is walked: its jump lands outside.
    refused(
        vec![Op::Const(1), Op::BinKJumpIfNot(BinaryOp::Eq, 1, 9), Op::Ret],
        0,
        1,
        "past",
    );
}

/// Nim's game at its first decision.
fn nim_game() -> Game {
    let rules = Arc::new(load("tests/rulesets/nim"));
    Game::new(rules, 2, 1).expect("starts")
}

#[test]
fn a_tampered_stack_is_an_internal_error() {
    let internal = |tamper: &dyn Fn(&mut Vec<Value>)| {
        let mut game = nim_game();
        let st = game.state_mut();
        tamper(&mut st.vm.stack);
        tabula::engine::vm::resume(st, 0, 1);
        let rules = game.rules().clone();
        let err = tabula::engine::vm::run(&rules, game.state_mut()).expect_err("refused");
        assert_eq!(err.kind, ErrorKind::Internal, "{}", err.message);
    };
    internal(&|s| s.clear());
    internal(&|s| {
        s.pop();
    });
    internal(&|s| s.push(Value::I(7)));
    internal(&|s| s.extend((0..100).map(Value::I)));
}

#[test]
fn a_resumed_game_runs_as_proven() {
    let mut game = nim_game();
    let st = game.state_mut();
    tabula::engine::vm::resume(st, 0, 1);
    let rules = game.rules().clone();
    tabula::engine::vm::run(&rules, game.state_mut()).expect("runs");
}
