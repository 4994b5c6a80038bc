--- Test helpers: scratch Lua files that clean up after themselves.
local files = {}

--- Writes `text` to a new NAME.lua; returns its path and a function removing it.
function files.lua(text)
  local base = os.tmpname()
  local path = base .. ".lua"
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
  return path, function()
    os.remove(path)
    os.remove(base)
  end
end

return files
