# 30 binders nested in the sources of binders, the grammar read each source twice (time doubling per level, 20 levels took 75 s)
# run: tabula check ruleset
# exit: 1
# stderr: tabula::bad_aggregate
# timeout: 10
