// Copies what tsc does not emit into dist/: the themed icons and the codex file.
const { src, dest, parallel } = require('gulp');

function copyIcons() {
	return src('icons/*.svg').pipe(dest('dist/icons'));
}

function copyCodex() {
	return src('nodes/**/*.node.json').pipe(dest('dist/nodes'));
}

exports['build:assets'] = parallel(copyIcons, copyCodex);
