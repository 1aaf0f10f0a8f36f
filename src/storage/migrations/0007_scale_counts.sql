CREATE TABLE `language_counts` (
	`language_id` integer PRIMARY KEY NOT NULL,
	`value_count` integer DEFAULT 0 NOT NULL,
	`approved_count` integer DEFAULT 0 NOT NULL,
	`problem_value_count` integer DEFAULT 0 NOT NULL,
	`error_count` integer DEFAULT 0 NOT NULL,
	`warning_count` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`language_id`) REFERENCES `languages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `translations_problems_idx` ON `translations` (`language_id`,`key_id`) WHERE error_count > 0 OR warning_count > 0;