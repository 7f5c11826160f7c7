# `check --dump all | head -1` panicked on the closed pipe
# run: tabula check $ROOT/rules/tzolkin --dump all
# exit: 0
# close-stdout: 1
