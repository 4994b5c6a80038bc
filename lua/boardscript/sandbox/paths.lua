--- Paths a restricted file may read (boardscript.sandbox): relative names
-- in its directory and below, through no symbolic link.
local has_lfs, lfs = pcall(require, "lfs")
if not has_lfs or type(lfs) ~= "table" or type(lfs.symlinkattributes) ~= "function" then lfs = nil end

local paths = {}

-- Turns "a/./b/../c" into "a/c"; nil when it climbs above its start.
local function normalize(path)
  local parts = {}
  for part in path:gmatch("[^/]+") do
    if part == ".." then
      if #parts == 0 then return nil end
      parts[#parts] = nil
    elseif part ~= "." then
      parts[#parts + 1] = part
    end
  end
  return table.concat(parts, "/")
end

--- The directory of `path`, "." for a bare name.
-- @tparam string path a path
-- @treturn string
function paths.dir_of(path)
  return path:match("^(.*)/[^/]*$") or "."
end

--- The path user code at `dir` may read as `name`, or nil: relative names
-- only, in `dir` or below it, through no symbolic link (checked with
-- lua-filesystem; without it nothing is readable).
-- @tparam string dir the restricted file's directory
-- @param name the name it gave
-- @treturn ?string the path to open
function paths.readable(dir, name)
  if type(name) ~= "string" or name == "" or name:find("\0", 1, true) or name:sub(1, 1) == "/" then
    return nil
  end
  local inside = normalize(name)
  if not inside or inside == "" or not lfs then return nil end
  local path = dir
  for part in inside:gmatch("[^/]+") do
    path = path .. "/" .. part
    if lfs.symlinkattributes(path, "mode") == "link" then return nil end
  end
  return path
end

--- The message refusing `name` to a restricted file at `dir`.
-- @param name the name it gave
-- @tparam string dir its directory
-- @treturn string
function paths.unreadable(name, dir)
  return ("%s: reading is allowed only for files in %s/ and below, through no symbolic link%s "
    .. "(restricted; --trust gives full rights)"):format(tostring(name), dir,
    lfs and "" or " (lua-filesystem is missing: nothing can be checked)")
end

return paths
