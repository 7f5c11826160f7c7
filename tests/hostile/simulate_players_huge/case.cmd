# run: tabula simulate $NIM --players 18446744073709551615
# exit: 1
# stderr: Nim is played by 2 to 3 players, not 18446744073709551615
