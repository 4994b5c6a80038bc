--- `boardscript play EDITION [options]`: one subcommand per edition.
local play = require "boardscript.play"

local command = { summary = "Play an edition, or any rule set: play FILE.lua." }

--- `argv`, when given, is the command line after `play`: an edition it
-- names is the only one configured (see play.add_editions).
function command.configure(cmd, argv)
  play.add_editions(cmd, argv)
  cmd:require_command(false)
end

function command.run(args, cmd)
  if not args.edition then
    io.stdout:write(cmd:get_help(), "\n")
    return 0
  end
  return play.run_parsed(args)
end

return command
