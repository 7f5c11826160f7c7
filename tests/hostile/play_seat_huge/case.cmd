# run: tabula play $NIM --players 2 --seat 99999999999999999999999
# exit: 1
# stderr: no seat `99999999999999999999999`
