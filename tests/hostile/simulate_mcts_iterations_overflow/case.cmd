# run: tabula simulate $NIM --games 1 --agents mcts:iterations=99999999999999999999,random,random
# exit: 1
# stderr: is not a positive integer
