# run: tabula simulate $NIM --games 1 --agents mcts:ms=0,random,random
# exit: 1
# stderr: `0` is not a positive integer
