# a sum of 1,000 terms (100,000 aborted, tests/limits.rs has that one), a chain is as deep as it has operators
# run: tabula check ruleset
# exit: 1
# stderr: tabula::too_deep
# stderr: nested more than 256 levels deep
