//! Agent specifications: how bots are named on the command line.
//!
//! A spec is a bot name with options after colons: `random`, `greedy`,
//! `mcts`, `mcts:iterations=2000`, `mcts:ms=50`,
//! `mcts:iterations=2000:ms=50`, `mcts:rollout=greedy:cutoff=10`,
//! `mcts:reward=leaders`,
//! `greedy:depth=6:eval=evaluate_v2` (valuing positions with the rules'
//! function `evaluate_v2` in place of `evaluate`). A list of
//! specs, one per seat, is separated by commas:
//! `mcts:iterations=300,random,random,random`.

use std::fmt;
use std::str::FromStr;

use super::eval::EvaluateSignatureError;
use super::{Agent, GreedyAgent, MctsAgent, MctsConfig, RandomAgent, Reward, Rollout};
use crate::ir::ruleset::Ruleset;

/// A bot, as named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentSpec {
    /// Uniformly random among the legal decisions.
    Random,
    /// One decision ahead on the ruleset's `evaluate` function (or its
    /// score keys).
    Greedy,
    /// Greedy through up to `depth` decisions of its own seat in a row
    /// (`greedy:depth=N`, N from 2; `greedy:depth=1` is [`AgentSpec::Greedy`]),
    /// or valuing positions with another function of the rules
    /// (`greedy:eval=NAME`, any depth).
    GreedyDeep {
        /// Decisions of its own seat looked through.
        depth: u64,
        /// The rules' function valuing positions in place of `evaluate`.
        eval: Option<String>,
    },
    /// Information-set Monte Carlo tree search with an iteration and/or
    /// time budget.
    Mcts {
        /// Iterations per decision.
        iterations: Option<u64>,
        /// Milliseconds per decision.
        ms: Option<u64>,
        /// How rollouts choose their decisions (`rollout=`).
        rollout: Rollout,
        /// Decisions after which a rollout is valued by `evaluate`
        /// (`cutoff=`; default: [`super::ROLLOUT_STEPS`]).
        cutoff: Option<u64>,
        /// How that value becomes rewards (`reward=`; default: the
        /// margin over the best other seat, [`Reward::Margin`]).
        reward: Reward,
        /// The rules' function valuing positions in place of `evaluate`
        /// (`eval=`).
        eval: Option<String>,
    },
}

/// The bot names [`AgentSpec`] accepts, for error messages.
pub const AGENT_NAMES: &str = "random, greedy, mcts (options after colons: greedy:depth=N, \
mcts:iterations=N, mcts:ms=N, mcts:rollout=random|greedy, mcts:cutoff=N, \
mcts:reward=margin|leaders|chances, and for both \
eval=NAME)";

/// The options of the mcts bot.
const MCTS_OPTIONS: [&str; 6] = ["iterations", "ms", "rollout", "cutoff", "reward", "eval"];

/// Why an agent spec does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AgentSpecError {
    /// Options given to a bot that takes none.
    #[error("the `{name}` agent takes no options (got `{options}`)")]
    TakesNoOptions {
        /// The bot.
        name: String,
        /// The options given, joined by `:`.
        options: String,
    },
    /// An mcts option without `=`.
    #[error(
        "bad mcts option `{option}`: expected `iterations=N`, `ms=N`, `rollout=random|greedy`, \
         `cutoff=N`, `reward=margin|leaders|chances` or `eval=NAME`"
    )]
    NotKeyValue {
        /// The option as written.
        option: String,
    },
    /// An mcts option whose value is not a positive integer.
    #[error("bad mcts option `{option}`: `{value}` is not a positive integer")]
    NotPositive {
        /// The option as written.
        option: String,
        /// Its value.
        value: String,
    },
    /// A `rollout=` that names no rollout policy.
    #[error("bad mcts option `{option}`: the rollouts are {}", Rollout::NAMES)]
    UnknownRollout {
        /// The option as written.
        option: String,
    },
    /// A `reward=` that names no valuation.
    #[error("bad mcts option `{option}`: the rewards are {}", Reward::NAMES)]
    UnknownReward {
        /// The option as written.
        option: String,
    },
    /// An mcts option written as a seat of its own (after a comma).
    #[error(
        "`{spec}` is an mcts option, not an agent: options follow the agent after colons \
         (e.g. `mcts:iterations=300:{spec}`); commas separate the seats"
    )]
    OptionAsAgent {
        /// The spec as written.
        spec: String,
    },
    /// An mcts option that does not exist.
    #[error(
        "unknown mcts option `{key}`: the options are `iterations`, `ms`, `rollout`, `cutoff`, \
         `reward` \
         and `eval`"
    )]
    UnknownOption {
        /// The option's name.
        key: String,
    },
    /// A greedy option other than `depth=N` and `eval=NAME`.
    #[error("bad greedy option `{option}`: the options are `depth=N` and `eval=NAME`")]
    BadGreedyOption {
        /// The option as written.
        option: String,
    },
    /// An `eval=` that is not a name.
    #[error("bad option `{option}`: `eval=` names a function of the rules, e.g. `eval=evaluate`")]
    BadEvalName {
        /// The option as written.
        option: String,
    },
    /// An option given twice.
    #[error("the option `{key}` is given twice")]
    Twice {
        /// The option's name.
        key: String,
    },
    /// Nothing before the options.
    #[error("an agent name is missing (the agents are {AGENT_NAMES})")]
    MissingName,
    /// A bot name that does not exist.
    #[error("unknown agent `{name}` (the agents are {AGENT_NAMES}){}", did_you_mean(.suggestion))]
    UnknownAgent {
        /// The name as written.
        name: String,
        /// A close bot name, if any.
        suggestion: Option<&'static str>,
    },
}

fn did_you_mean(suggestion: &Option<&'static str>) -> String {
    suggestion
        .map(|k| format!("; did you mean `{k}`?"))
        .unwrap_or_default()
}

impl FromStr for AgentSpec {
    type Err = AgentSpecError;

    fn from_str(s: &str) -> Result<AgentSpec, AgentSpecError> {
        let s = s.trim();
        let mut parts = s.split(':');
        let name = parts.next().unwrap_or("").trim();
        let options: Vec<&str> = parts.map(str::trim).collect();
        let no_options = |spec: AgentSpec| {
            if options.is_empty() {
                Ok(spec)
            } else {
                Err(AgentSpecError::TakesNoOptions {
                    name: name.to_string(),
                    options: options.join(":"),
                })
            }
        };
        match name {
            "random" => no_options(AgentSpec::Random),
            "greedy" => greedy_options(&options),
            "mcts" => mcts_options(&options),
            "" => Err(AgentSpecError::MissingName),
            other if is_mcts_option(other) => Err(AgentSpecError::OptionAsAgent {
                spec: s.to_string(),
            }),
            other => Err(AgentSpecError::UnknownAgent {
                name: other.to_string(),
                suggestion: ["random", "greedy", "mcts"]
                    .into_iter()
                    .find(|k| strsim::jaro_winkler(other, k) > 0.8),
            }),
        }
    }
}

/// The greedy spec with `options` (`depth=N`, `eval=NAME`).
fn greedy_options(options: &[&str]) -> Result<AgentSpec, AgentSpecError> {
    let (mut depth, mut eval) = (None, None);
    for opt in options {
        let key_value = opt.split_once('=').map(|(k, v)| (k.trim(), v.trim()));
        let given_before = match key_value {
            Some(("depth", value)) => depth.replace(positive(opt, value)?).is_some(),
            Some(("eval", value)) => eval.replace(eval_name(opt, value)?).is_some(),
            _ => {
                return Err(AgentSpecError::BadGreedyOption {
                    option: opt.to_string(),
                })
            }
        };
        if given_before {
            let key = opt.split('=').next().unwrap_or("").trim();
            return Err(AgentSpecError::Twice {
                key: key.to_string(),
            });
        }
    }
    Ok(match (depth, eval) {
        (None | Some(1), None) => AgentSpec::Greedy,
        (depth, eval) => AgentSpec::GreedyDeep {
            depth: depth.unwrap_or(1),
            eval,
        },
    })
}

/// An `eval=` option's value: a name (letters, digits, `_`).
fn eval_name(opt: &str, value: &str) -> Result<String, AgentSpecError> {
    let ok = value
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(value.to_string())
    } else {
        Err(AgentSpecError::BadEvalName {
            option: opt.to_string(),
        })
    }
}

/// Whether `s` reads as an mcts option (`cutoff=20`) rather than a name.
fn is_mcts_option(s: &str) -> bool {
    s.split_once('=')
        .is_some_and(|(k, _)| MCTS_OPTIONS.contains(&k.trim()))
}

/// A positive integer option's value.
fn positive(opt: &str, value: &str) -> Result<u64, AgentSpecError> {
    value
        .parse()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| AgentSpecError::NotPositive {
            option: opt.to_string(),
            value: value.to_string(),
        })
}

/// The mcts spec with `options` (`iterations=N`, `ms=N`,
/// `rollout=random|greedy`, `cutoff=N`, `reward=NAME`, `eval=NAME`).
fn mcts_options(options: &[&str]) -> Result<AgentSpec, AgentSpecError> {
    let (mut iterations, mut ms, mut rollout, mut cutoff) = (None, None, None, None);
    let (mut eval, mut reward) = (None, None);
    for opt in options {
        let Some((key, value)) = opt.split_once('=') else {
            return Err(AgentSpecError::NotKeyValue {
                option: opt.to_string(),
            });
        };
        let (key, value) = (key.trim(), value.trim());
        let given_before = match key {
            "iterations" => iterations.replace(positive(opt, value)?).is_some(),
            "ms" => ms.replace(positive(opt, value)?).is_some(),
            "cutoff" => cutoff.replace(positive(opt, value)?).is_some(),
            "eval" => eval.replace(eval_name(opt, value)?).is_some(),
            "rollout" => {
                let r = Rollout::named(value).ok_or_else(|| AgentSpecError::UnknownRollout {
                    option: opt.to_string(),
                })?;
                rollout.replace(r).is_some()
            }
            "reward" => {
                let r = Reward::named(value).ok_or_else(|| AgentSpecError::UnknownReward {
                    option: opt.to_string(),
                })?;
                reward.replace(r).is_some()
            }
            _ => {
                return Err(AgentSpecError::UnknownOption {
                    key: key.to_string(),
                })
            }
        };
        if given_before {
            return Err(AgentSpecError::Twice {
                key: key.to_string(),
            });
        }
    }
    Ok(AgentSpec::Mcts {
        iterations,
        ms,
        rollout: rollout.unwrap_or_default(),
        cutoff,
        reward: reward.unwrap_or_default(),
        eval,
    })
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => f.write_str("random"),
            AgentSpec::Greedy => f.write_str("greedy"),
            AgentSpec::GreedyDeep { depth, eval } => {
                f.write_str("greedy")?;
                if *depth != 1 {
                    write!(f, ":depth={depth}")?;
                }
                if let Some(e) = eval {
                    write!(f, ":eval={e}")?;
                }
                Ok(())
            }
            AgentSpec::Mcts {
                iterations,
                ms,
                rollout,
                cutoff,
                reward,
                eval,
            } => {
                f.write_str("mcts")?;
                if let Some(n) = iterations {
                    write!(f, ":iterations={n}")?;
                }
                if let Some(n) = ms {
                    write!(f, ":ms={n}")?;
                }
                if *rollout != Rollout::Random {
                    write!(f, ":rollout={rollout}")?;
                }
                if let Some(n) = cutoff {
                    write!(f, ":cutoff={n}")?;
                }
                if *reward != Reward::default() {
                    write!(f, ":reward={reward}")?;
                }
                if let Some(e) = eval {
                    write!(f, ":eval={e}")?;
                }
                Ok(())
            }
        }
    }
}

impl AgentSpec {
    /// Builds the bot for one game: `seed` drives its own random choices.
    /// Fails when the bot cannot play this ruleset (or is not available).
    pub fn build(
        &self,
        rules: &Ruleset,
        seed: u64,
    ) -> Result<Box<dyn Agent>, EvaluateSignatureError> {
        match self {
            AgentSpec::Random => Ok(Box::new(RandomAgent::new(seed))),
            AgentSpec::Greedy => Ok(Box::new(GreedyAgent::new(rules, seed)?)),
            AgentSpec::GreedyDeep { depth, eval } => Ok(Box::new(GreedyAgent::with_eval(
                rules,
                seed,
                (*depth).min(u32::MAX as u64) as u32,
                eval.as_deref(),
            )?)),
            AgentSpec::Mcts {
                iterations,
                ms,
                rollout,
                cutoff,
                reward,
                eval,
            } => {
                let to_u32 = |n: &u64| (*n).min(u32::MAX as u64) as u32;
                let config = MctsConfig {
                    iterations: iterations.as_ref().map(to_u32),
                    ms: *ms,
                    rollout: *rollout,
                    cutoff: cutoff.as_ref().map(to_u32),
                    reward: *reward,
                    eval: eval.clone(),
                };
                Ok(Box::new(MctsAgent::with_config(rules, seed, config)?))
            }
        }
    }
}

/// Why a list of agents does not fit the game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AgentListError {
    /// One seat's spec does not parse.
    #[error("--agents, seat {seat}: {error}")]
    Seat {
        /// The seat, from 1.
        seat: usize,
        /// What is wrong with its spec.
        error: AgentSpecError,
    },
    /// Not one agent per seat.
    #[error("--agents names {given} agent{} but the game has {players} seats: give one agent per seat, e.g. `{}`",
        if *.given == 1 { "" } else { "s" },
        vec!["random"; *.players].join(","))]
    Count {
        /// Agents named.
        given: usize,
        /// Seats in the game.
        players: usize,
    },
}

/// Parses a comma-separated list of agents, one per seat, for `players`
/// seats. An empty list means every seat is `random`.
pub fn parse_agents(list: Option<&str>, players: usize) -> Result<Vec<AgentSpec>, AgentListError> {
    let Some(list) = list.filter(|l| !l.trim().is_empty()) else {
        return Ok(vec![AgentSpec::Random; players]);
    };
    let specs = list
        .split(',')
        .enumerate()
        .map(|(i, s)| {
            s.parse::<AgentSpec>()
                .map_err(|error| AgentListError::Seat { seat: i + 1, error })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if specs.len() != players {
        return Err(AgentListError::Count {
            given: specs.len(),
            players,
        });
    }
    Ok(specs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_options() {
        assert_eq!("random".parse(), Ok(AgentSpec::Random));
        assert_eq!(" greedy ".parse(), Ok(AgentSpec::Greedy));
        assert_eq!(
            "mcts:iterations=2000".parse(),
            Ok(AgentSpec::Mcts {
                iterations: Some(2000),
                ms: None,
                rollout: Rollout::Random,
                cutoff: None,
                reward: Reward::Margin,
                eval: None,
            })
        );
        let s: AgentSpec = "mcts:ms=50:iterations=10".parse().unwrap();
        assert_eq!(s.to_string(), "mcts:iterations=10:ms=50");
        assert_eq!("mcts".parse::<AgentSpec>().unwrap().to_string(), "mcts");
        // The margin is the default reward: it is not written out.
        let s: AgentSpec = "mcts:reward=margin".parse().unwrap();
        assert_eq!(s.to_string(), "mcts");
    }

    #[test]
    fn rejects_bad_agents() {
        let e = "randon".parse::<AgentSpec>().unwrap_err().to_string();
        assert!(e.contains("unknown agent `randon`") && e.contains("did you mean `random`"));
        let e = "mcts:depth=3".parse::<AgentSpec>().unwrap_err().to_string();
        assert!(e.contains("unknown mcts option `depth`"), "{e}");
        let e = "mcts:iterations=lots"
            .parse::<AgentSpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a positive integer"), "{e}");
        let e = "mcts:ms=0".parse::<AgentSpec>().unwrap_err().to_string();
        assert!(e.contains("not a positive integer"), "{e}");
        let e = "mcts:ms".parse::<AgentSpec>().unwrap_err().to_string();
        assert!(e.contains("expected `iterations=N`"), "{e}");
        let e = "mcts:ms=1:ms=2"
            .parse::<AgentSpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("given twice"), "{e}");
        let e = "random:fast".parse::<AgentSpec>().unwrap_err().to_string();
        assert!(e.contains("takes no options"), "{e}");
    }

    #[test]
    fn parses_the_search_and_look_ahead_options() {
        let s: AgentSpec = "mcts:iterations=300:rollout=greedy:cutoff=20"
            .parse()
            .unwrap();
        assert_eq!(
            s,
            AgentSpec::Mcts {
                iterations: Some(300),
                ms: None,
                rollout: Rollout::Greedy,
                cutoff: Some(20),
                reward: Reward::Margin,
                eval: None,
            }
        );
        assert_eq!(
            s.to_string(),
            "mcts:iterations=300:rollout=greedy:cutoff=20"
        );
        let s: AgentSpec = "mcts:rollout=random".parse().unwrap();
        assert_eq!(s.to_string(), "mcts");
        assert_eq!("greedy:depth=1".parse(), Ok(AgentSpec::Greedy));
        let s: AgentSpec = "greedy:depth=6".parse().unwrap();
        assert_eq!(
            s,
            AgentSpec::GreedyDeep {
                depth: 6,
                eval: None
            }
        );
        assert_eq!(s.to_string(), "greedy:depth=6");
        // Another function of the rules in place of `evaluate`.
        for spec in [
            "greedy:eval=evaluate_v2",
            "greedy:depth=6:eval=old_value",
            "mcts:iterations=300:eval=evaluate_v2",
            "mcts:iterations=300:cutoff=20:reward=leaders",
            "mcts:reward=chances",
        ] {
            assert_eq!(spec.parse::<AgentSpec>().unwrap().to_string(), spec);
        }
        assert_eq!(
            "greedy:eval=v:depth=1".parse(),
            Ok(AgentSpec::GreedyDeep {
                depth: 1,
                eval: Some("v".into())
            })
        );
    }

    #[test]
    fn rejects_bad_search_options_clearly() {
        let err = |s: &str| s.parse::<AgentSpec>().unwrap_err().to_string();
        let e = err("mcts:rollout=smart");
        assert!(
            e.contains("bad mcts option `rollout=smart`") && e.contains("`random` or `greedy`"),
            "{e}"
        );
        let e = err("mcts:cutoff=0");
        assert!(
            e.contains("`cutoff=0`") && e.contains("not a positive integer"),
            "{e}"
        );
        let e = err("mcts:cutoff=5:cutoff=6");
        assert!(e.contains("`cutoff` is given twice"), "{e}");
        let e = err("mcts:rollout");
        assert!(e.contains("rollout=random|greedy"), "{e}");
        let e = err("mcts:depth=3");
        assert!(e.contains("`cutoff`, `reward` and `eval`"), "{e}");
        let e = err("mcts:reward=best");
        assert!(
            e.contains("bad mcts option `reward=best`")
                && e.contains("`margin`, `leaders` or `chances`"),
            "{e}"
        );
        // An option written after a comma reads as a seat of its own.
        let e = err("cutoff=20");
        assert!(
            e.contains("is an mcts option") && e.contains("mcts:iterations=300:cutoff=20"),
            "{e}"
        );
        let e = err("greedy:eval=a-b");
        assert!(e.contains("`eval=` names a function of the rules"), "{e}");
        let e = err("mcts:eval=");
        assert!(e.contains("`eval=` names a function of the rules"), "{e}");
        let e = err("greedy:eval=a:eval=b");
        assert!(e.contains("`eval` is given twice"), "{e}");
        let e = err("greedy:depth=x");
        assert!(e.contains("not a positive integer"), "{e}");
        let e = err("greedy:fast");
        assert!(
            e.contains("bad greedy option `fast`") && e.contains("depth=N") && e.contains("eval="),
            "{e}"
        );
        let e = parse_agents(Some("mcts:iterations=300,cutoff=20,random,random"), 4)
            .unwrap_err()
            .to_string();
        assert!(e.contains("seat 2") && e.contains("after colons"), "{e}");
    }

    #[test]
    fn one_agent_per_seat() {
        assert_eq!(parse_agents(None, 3).unwrap(), vec![AgentSpec::Random; 3]);
        let v = parse_agents(Some("greedy,random"), 2).unwrap();
        assert_eq!(v, vec![AgentSpec::Greedy, AgentSpec::Random]);
        let e = parse_agents(Some("greedy,random"), 3)
            .unwrap_err()
            .to_string();
        assert!(e.contains("3 seats"), "{e}");
        let e = parse_agents(Some("random,bogus"), 2)
            .unwrap_err()
            .to_string();
        assert!(e.contains("seat 2") && e.contains("bogus"), "{e}");
    }
}
