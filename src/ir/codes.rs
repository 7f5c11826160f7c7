//! The codes of diagnostics: one stable name per class of mistake, so that
//! a test or a tool matches the code, not the wording of the message.
//!
//! Every code is one row of the table below: its variant, its name (shown
//! as `tabula::<name>`) and a one-line summary, which docs/LANGUAGE.md
//! lists in its section Diagnostics (tests/docs.rs checks both agree). A
//! code names a class of mistakes a rules author recognises, not the place
//! in tabula that reports it: many places report `type_mismatch`.

use std::fmt;

/// What every rendered code starts with.
pub const PREFIX: &str = "tabula::";

/// Declares [`Code`] from its table: `Variant => "name", "summary";`.
macro_rules! codes {
    ($($variant:ident => $name:literal, $summary:literal;)*) => {
        /// The class of a mistake: see the table in `src/ir/codes.rs`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $(
                #[doc = $summary]
                $variant,
            )*
        }

        impl Code {
            /// Every code, in the order of the table.
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// The stable name, without the `tabula::` prefix.
            pub fn name(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            /// What the code stands for, in one line (as documented).
            pub fn summary(self) -> &'static str {
                match self {
                    $(Code::$variant => $summary,)*
                }
            }
        }
    };
}

codes! {
    // Files.
    MissingFile => "missing_file",
        "a file that is not there: a ruleset without `game.yaml`, a file named in `files:` that does not exist";
    UnreadableFile => "unreadable_file",
        "a file that exists but cannot be read as text: a directory, a device or a pipe, a link loop, no permission, text that is not UTF-8";
    UnknownFileType => "unknown_file_type",
        "a file listed in `files:` that is neither `.yaml` nor `.rules`, or a variant path that is not `.yaml` or `.yml`";
    UnknownVariant => "unknown_variant",
        "a variant the ruleset does not offer (no `variants/<name>.yaml`), or a variant path with no file";
    // YAML.
    YamlSyntax => "yaml_syntax",
        "text the YAML parser rejects: indentation, a missing colon, an unclosed bracket";
    YamlUnsupported => "yaml_unsupported",
        "YAML that tabula does not read: anchors, aliases, tags, a key that is not a plain name";
    DuplicateKey => "duplicate_key",
        "a key written twice in one YAML mapping (an item id under `items:` included)";
    // Data.
    UnknownField => "unknown_field",
        "a field that does not exist there: a key of `game.yaml`, a variant, a data file, a scenario or a language file; `item.field` in the rules";
    MissingField => "missing_field",
        "a required field left out: a kind without `items:`, an item without a field its kind requires";
    BadValue => "bad_value",
        "a YAML value of the wrong type or shape: a word where a number is expected, a scalar where a mapping or a list is expected, an unknown grid shape";
    BadPlayerCount => "bad_player_count",
        "a player count out of range: `players:` outside 1..16, fewer seat names than players, a reference evaluated for a count the ruleset does not allow";
    // Syntax.
    SyntaxError => "syntax_error",
        "rules text the grammar rejects (the message names what was expected)";
    // Limits.
    TooLarge => "too_large",
        "beyond a size tabula reads (docs/LANGUAGE.md, Limits): a file over 16 MB, rules over 1 MB, too many kinds, items, fields, cells, copies, data, state, parameters, locals, set elements, arms or options";
    TooDeep => "too_deep",
        "rules or YAML nested deeper than tabula reads (docs/LANGUAGE.md, Limits): brackets, blocks and `if`s past 64, operators, calls and statements past 256 levels, YAML past 256";
    NumberOutOfRange => "number_out_of_range",
        "an integer beyond the 64-bit range (-9223372036854775808 to 9223372036854775807), in the rules or in YAML";
    // Names.
    UnknownName => "unknown_name",
        "a name nothing declares: a variable, function, procedure, parameter or item id";
    UnknownParam => "unknown_param",
        "a `--set NAME=VALUE` whose NAME is not a parameter of the ruleset (`params:`)";
    UnknownKind => "unknown_kind",
        "a kind name that no data file declares";
    UnknownItem => "unknown_item",
        "an item that its kind does not have: `kind.item`, an item id in data, a cell outside its grid";
    UnknownType => "unknown_type",
        "a type name that is neither a builtin type nor a kind";
    DuplicateName => "duplicate_name",
        "a name defined twice: a kind, item, parameter, variable, function, procedure or seat, or two parameters of one function";
    AmbiguousName => "ambiguous_name",
        "an item id or seat name that several kinds share, used without its kind";
    ReservedName => "reserved_name",
        "a name the language keeps: a builtin's name, a reserved word, `id` or `copies` as a field";
    MisusedName => "misused_name",
        "a name used as what it is not: a variable called, a function named without a call, a parameter or kind assigned";
    // Types.
    TypeMismatch => "type_mismatch",
        "a value of one type where another is needed: conditions, arguments, indices, returned and assigned values, set elements, branches";
    BadOperands => "bad_operands",
        "an operator given values it does not apply to: comparing texts or values of two types, ordering sets, `+` on items, `in` without a set";
    UnsupportedType => "unsupported_type",
        "a type not allowed in its place: a set or a list as an item field, a table as a state variable";
    CannotInferType => "cannot_infer_type",
        "a value whose type cannot be told: `let x = none;` without a type, a parameter such as `[]`";
    WrongArgumentCount => "wrong_argument_count",
        "a call with too many or too few arguments";
    WrongIndexCount => "wrong_index_count",
        "a variable or table with the wrong number of indices, or used without them";
    NotIndexable => "not_indexable",
        "brackets after something that takes no index: a local, an int, an item";
    // Structure.
    ImpureFunction => "impure_function",
        "a `fn` that changes the state, asks for a decision, draws at random or calls a procedure";
    MisplacedStatement => "misplaced_statement",
        "a statement where it means nothing: `break` or `continue` outside a loop, `legal;` in a function";
    UselessExpression => "useless_expression",
        "an expression written as a statement, which does nothing";
    DuplicateOption => "duplicate_option",
        "two options of one choice with the same name (named arms, or options met while playing)";
    BadAggregate => "bad_aggregate",
        "an aggregate without its value after `:`, or `count` with one";
    BadRange => "bad_range",
        "an empty or huge range `lo..hi` as a dimension";
    BadPrivate => "bad_private",
        "a `private` variable whose first index is not `player`";
    MissingMain => "missing_main",
        "a ruleset without `proc main()`";
    MissingScore => "missing_score",
        "a ruleset without a `score` declaration";
    DuplicateScore => "duplicate_score",
        "a second `score` declaration";
    // Rules errors while playing: one per kind of runtime error.
    OutOfRange => "out_of_range",
        "while playing: an index, a range or a set beyond what a variable holds, or a decision asked of a seat that is not playing";
    NoneUsed => "none_used",
        "while playing: `none` where an item, a player or a procedure is needed";
    DivisionByZero => "division_by_zero",
        "while playing: a division or a remainder by zero";
    RefusedValue => "refused_value",
        "while playing: a value an operation refuses: `roll(0)`, `push` of an item the list holds or onto a full list";
    LimitReached => "limit_reached",
        "while playing: too many steps without a decision (an endless loop), calls nested too deep, or another bound of the engine passed (options of one decision, steps to list them, words an option writes, the state's size)";
    RequirementFailed => "requirement_failed",
        "while playing: a `require` failing where no decision can be undone (in a value, before the first decision)";
    DecisionInValue => "decision_in_value",
        "while playing: a value asked of code that stops for a decision";
    DeadEnd => "dead_end",
        "while playing: a choice none of whose options is legal";
    BrokenLegal => "broken_legal",
        "while playing: a `legal;` or a requirement checked on a whole set that answered otherwise than the full run";
    NotReplayable => "not_replayable",
        "while playing: an option legal when checked but refused when run again";
    Internal => "internal_error",
        "while playing: code the compiler should not have produced (a bug of tabula, not of the rules)";
    // Scenarios.
    ScenarioRefused => "scenario_refused",
        "a scenario's `do:` decision that the game does not apply: refused, not an option, or the game is over";
    ScenarioNotRefused => "scenario_not_refused",
        "a scenario's `refuse:` decision that the rules allow, or asked when no decision is pending";
    ScenarioWrongReason => "scenario_wrong_reason",
        "a scenario's `refuse:` decision refused for another reason than its `because:`";
    ScenarioWrongOptions => "scenario_wrong_options",
        "a scenario's `options:` that are not the legal decisions";
    ScenarioWrongValue => "scenario_wrong_value",
        "a scenario's `expect:` value or `check:` condition that the rules contradict";
    ScenarioAssertsNothing => "scenario_asserts_nothing",
        "a scenario with no `expect:`, `check:`, `refuse:` or `options:` step: it proves nothing";
    // Game logs.
    LogSyntax => "log_syntax",
        "a game log that is not JSON, or that ends too early";
    LogInvalid => "log_invalid",
        "a game log that is JSON but not a game log: a field missing or of the wrong type";
    LogUnverifiable => "log_unverifiable",
        "a game log without `result` or `state_hash`, whose replay would verify nothing";
    LogMismatch => "log_mismatch",
        "a game log its replay contradicts: a player count, a decision, the result or the final state";
    // Measurements.
    CompareCommand => "compare_command",
        "a `bench --compare-with` command that is empty, does not start, fails, runs too long, or prints no `games/s:` line or a figure that is not a number";
    // Where files may come from.
    PathOutside => "path_outside",
        "a path that leaves the places it may name: a file of a ruleset outside its directory, a variant name that is not a plain name, or a path read from a file that is absolute, climbs with `..` or follows a link leading out";
    // Rulebook checks (`tabula translate`).
    TranslateBadClaim => "translate_bad_claim",
        "a claim of a language file that breaks its format: no `ref:` nor `note:`, `stated:` without `expect: contradicted`, recorded values not one per `#`";
    TranslateBadReference => "translate_bad_reference",
        "a reference of a language file to a scenario's value (`setup(x)`, `expected(x)`) that the scenario does not give";
    TranslateNotFound => "translate_not_found",
        "a passage, a skipped passage or a number that the rulebook's text does not hold";
    TranslateContradiction => "translate_contradiction",
        "a number of the rulebook that differs from the rules, or from the value the language file records";
    TranslateUncovered => "translate_uncovered",
        "a numeric statement that no claim covers, where the language file requires coverage";
    TranslateWrongWord => "translate_wrong_word",
        "a word of the rulebook naming another game object (a resource, a technology, a temple) than the claim's anchor names, through the glossary";
}

impl Code {
    /// The code named `name`, with or without the `tabula::` prefix.
    pub fn from_name(name: &str) -> Option<Code> {
        let bare = name.strip_prefix(PREFIX).unwrap_or(name);
        Code::ALL.iter().copied().find(|c| c.name() == bare)
    }
}

/// Shown as `tabula::<name>`.
impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{PREFIX}{}", self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_snake_case_and_parse_back() {
        let mut seen = std::collections::BTreeSet::new();
        for &c in Code::ALL {
            assert!(seen.insert(c.name()), "`{}` twice", c.name());
            assert!(
                c.name()
                    .chars()
                    .all(|ch| ch.is_ascii_lowercase() || ch == '_'),
                "`{}` is not snake_case",
                c.name()
            );
            assert!(!c.summary().is_empty());
            assert_eq!(Code::from_name(&c.to_string()), Some(c));
            assert_eq!(Code::from_name(c.name()), Some(c));
        }
        assert_eq!(Code::from_name("tabula::no_such_code"), None);
    }
}
