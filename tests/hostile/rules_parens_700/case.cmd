# 700 nested parentheses, a stack overflow (abort) before the nesting limit
# run: tabula check ruleset
# exit: 1
# stderr: tabula::too_deep
# stderr: nested more than 64 deep
