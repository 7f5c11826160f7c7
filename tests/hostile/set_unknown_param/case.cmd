# run: tabula check $NIM --set strat=3
# exit: 1
# stderr: tabula::unknown_param
# stderr: no parameter `strat` to set
# stderr: did you mean `start`?
