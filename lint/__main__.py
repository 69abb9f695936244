from steplint.frontends.cli import main

main()
