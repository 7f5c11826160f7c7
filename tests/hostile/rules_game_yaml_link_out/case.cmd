# game.yaml itself a link leading out
# run: tabula check ruleset
# exit: 1
# stderr: is a link leading outside the ruleset
# absent: root:
# link: ruleset/game.yaml -> /etc/passwd
