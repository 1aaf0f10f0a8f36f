CREATE TABLE `editor_preferences` (
	`user_id` integer NOT NULL,
	`project_id` integer NOT NULL,
	`languages` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `project_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `translation_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key_id` integer NOT NULL,
	`language_id` integer NOT NULL,
	`value` text NOT NULL,
	`previous_value` text,
	`status` text NOT NULL,
	`by_kind` text NOT NULL,
	`by_public_id` text NOT NULL,
	`by_name` text NOT NULL,
	`via` text NOT NULL,
	`at` integer NOT NULL,
	FOREIGN KEY (`key_id`) REFERENCES `translation_keys`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`language_id`) REFERENCES `languages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `translation_history_key_idx` ON `translation_history` (`key_id`,`id`);--> statement-breakpoint
ALTER TABLE `api_tokens` ADD `scopes` text DEFAULT '["read"]' NOT NULL;--> statement-breakpoint
ALTER TABLE `projects` ADD `message_syntax` text DEFAULT 'icu' NOT NULL;--> statement-breakpoint
ALTER TABLE `releases` ADD `forced` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `translations` ADD `problems` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `translations` ADD `error_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `translations` ADD `warning_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `translations` ADD `checked_at` integer;