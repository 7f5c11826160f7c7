# 30 nested aggregates that fail as aggregates (`sum(x in S, 1)`), the grammar read each again as a call (time doubling per level)
# run: tabula check ruleset
# exit: 1
# stderr: tabula::syntax_error
# timeout: 10
