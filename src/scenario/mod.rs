//! Scenarios: scripted positions and decisions with asserted outcomes.
