//! Simulation: many games, statistics, reports.
