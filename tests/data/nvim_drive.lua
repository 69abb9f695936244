-- Driven by tests/test_neovim.py: wait for steplint's diagnostic, apply its quick fix, record the buffer.
local out = {}
local function finish(ok)
  local handle = io.open(vim.env.STEPLINT_NVIM_OUT, "w")
  handle:write(vim.fn.json_encode(out))
  handle:close()
  vim.cmd(ok and "qa!" or "cq!")
end
local ok, err = pcall(function()
  local buf = vim.api.nvim_get_current_buf()
  out.filetype = vim.bo[buf].filetype
  assert(vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 50), "no diagnostics within 30 s")
  local d = vim.diagnostic.get(buf)[1]
  out.diagnostic = { lnum = d.lnum, col = d.col, message = d.message, source = d.source, severity = d.severity, code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) }
  local hovered = vim.lsp.buf_request_sync(buf, "textDocument/hover",
    { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = d.lnum, character = d.col + 1 } }, 10000)
  for _, response in pairs(hovered or {}) do
    if response.result then out.hover = response.result.contents.value end
  end
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = d.lnum, character = d.col }, ["end"] = { line = d.end_lnum, character = d.end_col } },
    context = { diagnostics = {} },
  }
  local responses = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", params, 10000)
  out.titles = {}
  local chosen
  for client_id, response in pairs(responses or {}) do
    for _, action in ipairs(response.result or {}) do
      table.insert(out.titles, action.title)
      if action.title:find("__wrapped__", 1, true) then chosen = { action = action, client = vim.lsp.get_client_by_id(client_id) } end
    end
  end
  assert(chosen, "no quick fix that calls __wrapped__")
  vim.lsp.util.apply_workspace_edit(chosen.action.edit, chosen.client.offset_encoding)
  out.lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  out.cleared = vim.wait(30000, function() return #vim.diagnostic.get(buf) == 0 end, 50)
end)
out.error = (not ok) and tostring(err) or nil
finish(ok)
