CREATE TABLE `comments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`key_id` integer NOT NULL,
	`language_code` text,
	`body` text NOT NULL,
	`by_kind` text NOT NULL,
	`by_public_id` text NOT NULL,
	`by_name` text NOT NULL,
	`created_at` integer NOT NULL,
	`resolved_at` integer,
	FOREIGN KEY (`key_id`) REFERENCES `translation_keys`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `comments_public_id_unique` ON `comments` (`public_id`);--> statement-breakpoint
CREATE INDEX `comments_key_idx` ON `comments` (`key_id`,`id`);--> statement-breakpoint
CREATE INDEX `comments_open_idx` ON `comments` (`key_id`) WHERE resolved_at IS NULL;--> statement-breakpoint
CREATE TABLE `glossary_terms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`project_id` integer NOT NULL,
	`term` text NOT NULL,
	`translations` text DEFAULT '{}' NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`case_sensitive` integer DEFAULT false NOT NULL,
	`do_not_translate` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `glossary_terms_public_id_unique` ON `glossary_terms` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `glossary_project_term_uq` ON `glossary_terms` (`project_id`,`term`);--> statement-breakpoint
CREATE TABLE `memory_imports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`project_id` integer NOT NULL,
	`name` text NOT NULL,
	`source_language` text NOT NULL,
	`units` integer DEFAULT 0 NOT NULL,
	`by_kind` text NOT NULL,
	`by_public_id` text NOT NULL,
	`by_name` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `memory_imports_public_id_unique` ON `memory_imports` (`public_id`);--> statement-breakpoint
CREATE INDEX `memory_imports_project_idx` ON `memory_imports` (`project_id`);--> statement-breakpoint
CREATE TABLE `memory_targets` (
	`unit_id` integer NOT NULL,
	`language_code` text NOT NULL,
	`text` text NOT NULL,
	PRIMARY KEY(`unit_id`, `language_code`),
	FOREIGN KEY (`unit_id`) REFERENCES `memory_units`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `memory_units` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`import_id` integer NOT NULL,
	`project_id` integer NOT NULL,
	`tuid` text,
	`source` text NOT NULL,
	FOREIGN KEY (`import_id`) REFERENCES `memory_imports`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `memory_units_import_idx` ON `memory_units` (`import_id`);--> statement-breakpoint
CREATE TABLE `screenshot_keys` (
	`screenshot_id` integer NOT NULL,
	`key_id` integer NOT NULL,
	`x` integer,
	`y` integer,
	`width` integer,
	`height` integer,
	PRIMARY KEY(`screenshot_id`, `key_id`),
	FOREIGN KEY (`screenshot_id`) REFERENCES `screenshots`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`key_id`) REFERENCES `translation_keys`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `screenshot_keys_key_idx` ON `screenshot_keys` (`key_id`);--> statement-breakpoint
CREATE TABLE `screenshots` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`project_id` integer NOT NULL,
	`name` text NOT NULL,
	`content_type` text NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`bytes` integer NOT NULL,
	`sha256` text NOT NULL,
	`image` blob NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `screenshots_public_id_unique` ON `screenshots` (`public_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `screenshots_project_name_uq` ON `screenshots` (`project_id`,`name`);