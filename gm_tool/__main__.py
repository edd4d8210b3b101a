from gm_tool.console import main

main()
