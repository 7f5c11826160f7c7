# run: tabula bench $NIM --seconds 0
# exit: 0
# stdout: games/s:
