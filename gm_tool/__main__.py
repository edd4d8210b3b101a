from gm_tool.cli import main

main()
