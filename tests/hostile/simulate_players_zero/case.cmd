# run: tabula simulate $NIM --players 0
# exit: 1
# stderr: Nim is played by 2 to 3 players, not 0
