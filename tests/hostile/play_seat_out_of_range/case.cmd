# run: tabula play $NIM --players 2 --seat 2
# exit: 1
# stderr: --seat 2 is out of range
