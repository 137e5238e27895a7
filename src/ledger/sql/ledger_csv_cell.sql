-- One CSV cell of text someone else wrote (a narration, a reference), as csvCell
-- (src/shared/csv-cell.ts) writes it: text a spreadsheet would run as a formula
-- (a leading =, +, -, @, tab or carriage return, unless it is a plain number) gets a single
-- quote in front; then RFC 4180 quoting (a cell with a comma, a quote or a line break goes in
-- double quotes, its quotes doubled).
CREATE OR REPLACE FUNCTION ledger_csv_cell(p_value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN safe ~ '[",\r\n]' THEN '"' || replace(safe, '"', '""') || '"' ELSE safe END
    FROM (SELECT CASE
        WHEN left(p_value, 1) IN ('=', '+', '-', '@', chr(9), chr(13))
             AND p_value !~ '^-?[0-9]+(\.[0-9]+)?$'
        THEN '''' || p_value ELSE p_value END AS safe) cell
$$;
