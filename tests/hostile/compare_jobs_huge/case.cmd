# run: tabula compare $NIM --games 2 --jobs 1000
# exit: 1
# stderr: at most 256 threads
