# run: tabula simulate rules --games 1
# exit: 1
# stderr: tabula::dead_end
# stderr: failed after 5 decisions
# stderr: every way fails at the ninth decision
# at: rules/t.rules:19:23
# timeout: 10
