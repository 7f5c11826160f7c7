//! Choosing an option by what a human types: its number in the list, its
//! name (`tile green sq_7_3`), or an unambiguous prefix of the name, word
//! by word (`t g sq_7_3`) or as a whole (`tile green sq_7`).

/// Why a typed choice picks no single option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PickError {
    /// Nothing typed.
    Empty,
    /// A number outside 1..=count.
    OutOfRange(usize),
    /// No option matches.
    NoMatch(String),
    /// Several options match: their names (the first few).
    Ambiguous(String, Vec<String>),
}

impl std::fmt::Display for PickError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PickError::Empty => write!(f, "type an option's number or its name"),
            PickError::OutOfRange(n) => write!(f, "{n} is not an option's number"),
            PickError::NoMatch(t) => write!(f, "no option is named `{t}` or starts so"),
            PickError::Ambiguous(t, names) => {
                write!(f, "`{t}` matches several options: {}", names.join(", "))
            }
        }
    }
}

/// How many candidates an ambiguous choice lists.
const SHOWN: usize = 12;

/// Whether `typed` is a prefix of `name` word by word: each typed word
/// begins the name's word at its place.
fn words_prefix(typed: &str, name: &str) -> bool {
    let t: Vec<&str> = typed.split_whitespace().collect();
    let n: Vec<&str> = name.split_whitespace().collect();
    t.len() <= n.len() && t.iter().zip(&n).all(|(a, b)| b.starts_with(a))
}

/// The option (its index in `names`) that `typed` picks.
pub fn pick(typed: &str, names: &[&str]) -> Result<usize, PickError> {
    let typed = typed.trim();
    if typed.is_empty() {
        return Err(PickError::Empty);
    }
    if let Ok(n) = typed.parse::<usize>() {
        return if (1..=names.len()).contains(&n) {
            Ok(n - 1)
        } else {
            Err(PickError::OutOfRange(n))
        };
    }
    let norm = typed.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some(i) = names.iter().position(|n| *n == norm) {
        return Ok(i);
    }
    let hits: Vec<usize> = (0..names.len())
        .filter(|&i| names[i].starts_with(&norm) || words_prefix(&norm, names[i]))
        .collect();
    match hits.as_slice() {
        [one] => Ok(*one),
        [] => Err(PickError::NoMatch(norm)),
        many => {
            let mut shown: Vec<String> = many
                .iter()
                .take(SHOWN)
                .map(|i| names[*i].to_string())
                .collect();
            if many.len() > SHOWN {
                shown.push(format!("and {} more", many.len() - SHOWN));
            }
            Err(PickError::Ambiguous(norm, shown))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 4] = [
        "tile green sq_7_3",
        "tile green sq_7_4",
        "tile red sq_1_1",
        "pass",
    ];

    #[test]
    fn exact_number_and_prefixes() {
        assert_eq!(pick("2", &NAMES), Ok(1));
        assert_eq!(pick("pass", &NAMES), Ok(3));
        assert_eq!(pick("  tile   red sq_1_1 ", &NAMES), Ok(2));
        assert_eq!(pick("t r", &NAMES), Ok(2));
        assert_eq!(pick("tile green sq_7_4", &NAMES), Ok(1));
        assert_eq!(pick("p", &NAMES), Ok(3));
    }

    #[test]
    fn ambiguous_and_unknown() {
        assert_eq!(
            pick("tile green", &NAMES),
            Err(PickError::Ambiguous(
                "tile green".into(),
                vec!["tile green sq_7_3".into(), "tile green sq_7_4".into()]
            ))
        );
        assert_eq!(
            pick("build", &NAMES),
            Err(PickError::NoMatch("build".into()))
        );
        assert_eq!(pick("9", &NAMES), Err(PickError::OutOfRange(9)));
        assert_eq!(pick(" ", &NAMES), Err(PickError::Empty));
    }
}
