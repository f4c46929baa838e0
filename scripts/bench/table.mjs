// The benchmark scripts' one table printer: a Markdown table, columns padded to their widest cell.
export function printTable(header, rows) {
	const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => String(row[column]).length)));
	const line = (row) => `| ${row.map((cell, column) => String(cell).padEnd(widths[column])).join(' | ')} |`;
	console.log(line(header));
	console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
	for (const row of rows) console.log(line(row));
}
