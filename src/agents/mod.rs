//! Agents: bots that choose among the legal decisions.
