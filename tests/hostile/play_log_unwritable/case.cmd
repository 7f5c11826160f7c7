# run: tabula play $NIM --players 2 --log no/such/dir/game.json
# exit: 1
# stdin: input.txt
# stderr: cannot write `no/such/dir/game.json`
# absent: You are
